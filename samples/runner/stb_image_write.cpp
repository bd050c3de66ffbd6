// The one translation unit that compiles stb's PNG writer (Debian libstb-dev).
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
