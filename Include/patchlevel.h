/* The version this runtime implements, for #if tests in C code
   (PY_VERSION_HEX >= 0x030E0000) and for sys.version_info. */
#ifndef Py_PATCHLEVEL_H
#define Py_PATCHLEVEL_H

#define PY_RELEASE_LEVEL_ALPHA 0xA
#define PY_RELEASE_LEVEL_BETA 0xB
#define PY_RELEASE_LEVEL_GAMMA 0xC /* release candidates */
#define PY_RELEASE_LEVEL_FINAL 0xF

#define PY_MAJOR_VERSION 3
#define PY_MINOR_VERSION 14
#define PY_MICRO_VERSION 0
#define PY_RELEASE_LEVEL PY_RELEASE_LEVEL_FINAL
#define PY_RELEASE_SERIAL 0

#define PY_VERSION "3.14.0"

/* One byte each for major, minor and micro, a nibble each for the level
   and the serial. */
#define PY_VERSION_HEX                                                          \
    ((PY_MAJOR_VERSION << 24) | (PY_MINOR_VERSION << 16) | (PY_MICRO_VERSION << 8) | \
     (PY_RELEASE_LEVEL << 4) | (PY_RELEASE_SERIAL << 0))

#endif /* !Py_PATCHLEVEL_H */
