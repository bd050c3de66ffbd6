#include "model/hfield_data.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>

#include "pliant/load_error.h"

namespace pliant {
namespace {

[[noreturn]] void hfield_fail(const std::string& xml_file, int xml_line, const std::string& what) {
  throw LoadError(xml_file, xml_line, what);
}

bool is_png(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return ext == ".png";
}

// Top image row first in `values` -> last height-field row.
std::vector<float> flip_rows(const std::vector<float>& values, int nrow, int ncol) {
  std::vector<float> out(values.size());
  for (int r = 0; r < nrow; ++r) {
    std::copy_n(values.begin() + static_cast<long>(r) * ncol, ncol,
                out.begin() + static_cast<long>(nrow - 1 - r) * ncol);
  }
  return out;
}

HfieldData read_png(const std::string& path, const std::string& xml_file, int xml_line) {
  int width = 0, height = 0, channels = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels(
      stbi_load(path.c_str(), &width, &height, &channels, 1), stbi_image_free);
  if (!pixels) {
    hfield_fail(xml_file, xml_line,
                "cannot read height-field image '" + path + "': " + stbi_failure_reason());
  }
  HfieldData data;
  data.nrow = height;
  data.ncol = width;
  std::vector<float> values(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < values.size(); ++i) values[i] = pixels.get()[i];
  data.elevation = flip_rows(values, height, width);
  return data;
}

HfieldData read_binary(const std::string& path, const std::string& xml_file, int xml_line) {
  std::ifstream in(path, std::ios::binary);
  if (!in) hfield_fail(xml_file, xml_line, "cannot open height-field file '" + path + "'");
  std::int32_t header[2] = {0, 0};
  in.read(reinterpret_cast<char*>(header), sizeof(header));
  if (!in || header[0] < 1 || header[1] < 1) {
    hfield_fail(xml_file, xml_line,
                "height-field file '" + path +
                    "' does not start with two positive int32 sizes (nrow, ncol); accepted are "
                    "PNG images and MuJoCo's binary format (int32 nrow, int32 ncol, float32 data)");
  }
  const std::uintmax_t expected = 8 + 4ull * header[0] * header[1];
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size != expected) {
    hfield_fail(xml_file, xml_line,
                "height-field file '" + path + "' has " + std::to_string(size) + " bytes; nrow " +
                    std::to_string(header[0]) + " and ncol " + std::to_string(header[1]) +
                    " need " + std::to_string(expected));
  }
  HfieldData data;
  data.nrow = header[0];
  data.ncol = header[1];
  data.elevation.resize(static_cast<size_t>(header[0]) * header[1]);
  in.read(reinterpret_cast<char*>(data.elevation.data()),
          static_cast<std::streamsize>(4 * data.elevation.size()));
  return data;
}

}  // namespace

HfieldData load_hfield_data(const std::string& path, int nrow, int ncol,
                            const std::vector<double>& elevation, const std::string& xml_file,
                            int xml_line, const std::string& format) {
  HfieldData data;
  if (!path.empty()) {
    if (nrow != 0 || ncol != 0 || !elevation.empty()) {
      hfield_fail(xml_file, xml_line,
                  "a height field read from a file takes its size from the file: remove "
                  "'nrow', 'ncol' and 'elevation'");
    }
    const bool png = format.empty() ? is_png(path) : format == "png";
    data = png ? read_png(path, xml_file, xml_line) : read_binary(path, xml_file, xml_line);
  } else {
    if (nrow < 1 || ncol < 1) {
      hfield_fail(xml_file, xml_line,
                  "a height field needs a 'file', or positive 'nrow' and 'ncol' (got " +
                      std::to_string(nrow) + " and " + std::to_string(ncol) + ")");
    }
    data.nrow = nrow;
    data.ncol = ncol;
    const size_t count = static_cast<size_t>(nrow) * ncol;
    constexpr size_t kMaxSamples = size_t{1} << 26;  // 64 Mi samples, 256 MiB of floats
    if (count > kMaxSamples) {
      hfield_fail(xml_file, xml_line,
                  "a height field of " + std::to_string(nrow) + " x " + std::to_string(ncol) +
                      " samples is too large; Pliant accepts up to " + std::to_string(kMaxSamples) +
                      " samples");
    }
    if (elevation.empty()) {
      data.elevation.assign(count, 0.0f);
      return data;
    }
    if (elevation.size() != count) {
      hfield_fail(xml_file, xml_line,
                  "'elevation' has " + std::to_string(elevation.size()) +
                      " values; nrow * ncol = " + std::to_string(count));
    }
    std::vector<float> values(elevation.begin(), elevation.end());
    data.elevation = flip_rows(values, nrow, ncol);
  }
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  for (float v : data.elevation) {
    if (!std::isfinite(v)) {
      hfield_fail(xml_file, xml_line, "height-field data contains a value that is not finite");
    }
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  const float range = hi - lo;
  for (float& v : data.elevation) v = range > 0 ? (v - lo) / range : 0.0f;
  return data;
}

}  // namespace pliant
