#pragma once

// Elevation data of height fields (<hfield>), as MuJoCo 3.x reads it:
//  * file ending in .png: an image, converted to grey; its top row becomes
//    the last row of the height field (row index grows with y);
//  * any other file: MuJoCo's binary format, int32 nrow, int32 ncol, then
//    nrow * ncol float32 values, row 0 first;
//  * inline `elevation` with nrow and ncol: nrow * ncol values written like
//    an image, top row (largest y) first;
//  * only nrow and ncol: a flat field of zeros.
// Whatever the source, the values are normalised to [0, 1] in single
// precision: (v - min) / (max - min), all zeros when the field is flat.

#include <string>
#include <vector>

namespace pliant {

struct HfieldData {
  int nrow = 0, ncol = 0;
  std::vector<float> elevation;  // nrow * ncol, row-major, in [0, 1]
};

// `path` is empty for inline or zero data. Throws LoadError(xml_file,
// xml_line, ...) for unreadable files, sizes that do not match and values
// that are not finite. `format` ("png" or "binary", from the MJCF
// content_type) overrides the extension when it is not empty.
HfieldData load_hfield_data(const std::string& path, int nrow, int ncol,
                            const std::vector<double>& elevation, const std::string& xml_file,
                            int xml_line, const std::string& format = "");

}  // namespace pliant
