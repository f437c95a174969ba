// The marker-structure check run on JPEG bytes before stb_image decodes them (jpeg_structure.c).
#ifndef JPEG_STRUCTURE_H
#define JPEG_STRUCTURE_H

#include <stddef.h>

/// The most scans a progressive JPEG may have: libjpeg's standard scripts write 6 to 10, optimizing
/// encoders (mozjpeg) a few dozen; each costs a pass over the image's blocks, data or not.
#define IC_JPEG_MAX_PROGRESSIVE_SCANS 100

/// Walks the JPEG's marker segments with bounds checks; returns 0 when they are sound, otherwise
/// fills `message` (IC_MESSAGE_SIZE bytes) with the problem and its byte offset and returns 1.
int ic_check_jpeg_structure(const unsigned char *data, size_t size, char *message);

#endif
