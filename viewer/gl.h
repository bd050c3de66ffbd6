#pragma once

// OpenGL 3.3 core entry points. Pliant links the system libGL, which exports
// every core function, so the prototypes are enough and no loader is needed.

#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>
