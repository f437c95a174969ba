// JPEG decoding through stb_image, the decoder MediaPipe's file loader uses, so that a JPEG
// gives exactly MediaPipe's pixels. The bytes pass ic_check_jpeg_structure first (see
// jpeg_structure.c for what stb_image would otherwise trust).
#include "image_codecs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stb_image.h>

#include "jpeg_structure.h"
#include "codec_message.h"

int ic_decode_jpeg(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message) {
    memset(out, 0, sizeof(*out));
    message[0] = 0;
    if (size > INT_MAX) return ic_fail(message, "file too large (%zu bytes)", size);
    if (ic_check_jpeg_structure(data, size, message)) return 1;
    int width = 0, height = 0, channels = 0;
    if (!stbi_info_from_memory(data, (int)size, &width, &height, &channels)) {
        return ic_fail(message, "%s", stbi_failure_reason());
    }
    if (width <= 0 || height <= 0) return ic_fail(message, "unsupported JPEG size %dx%d", width, height);
    // Checked from the header, before stb_image allocates anything for the pixels or coefficients.
    if ((size_t)width * (size_t)height > max_pixels) {
        out->width = width;
        out->height = height;
        return IC_TOO_MANY_PIXELS;
    }
    unsigned char *pixels = stbi_load_from_memory(data, (int)size, &width, &height, &channels, 0);
    if (pixels == NULL) return ic_fail(message, "%s", stbi_failure_reason());
    if (channels != 1 && channels != 3) {
        stbi_image_free(pixels);
        return ic_fail(message, "unexpected %d channels", channels);
    }
    out->pixels = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    return 0;
}
