// JPEG through libjpeg-turbo, with errors turned into return codes.
#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
} error_manager;

// Called by libjpeg on a fatal error: keep its message and unwind to the setjmp in
// this file (only C frames lie in between).
static void on_error(j_common_ptr info) {
    error_manager *manager = (error_manager *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(manager->message, IC_MESSAGE_SIZE, "%s", text);
    longjmp(manager->jump, 1);
}

// A truncated file (libjpeg pads it with an EOI and warns) is fatal: a damaged image
// must not decode into silently wrong pixels. Other warnings are tolerated.
static void on_message(j_common_ptr info, int level) {
    if (level < 0 && info->err->msg_code == JWRN_JPEG_EOF) {
        on_error(info);
    }
}

// stb_image's rounding of c*k/255, used by MediaPipe's decoder for CMYK data.
static unsigned char blinn(unsigned int x, unsigned int y) {
    unsigned int t = x * y + 128;
    return (unsigned char)((t + (t >> 8)) >> 8);
}

int ic_decode_jpeg(const unsigned char *data, size_t size, ic_image *out, char *message) {
    struct jpeg_decompress_struct info;
    error_manager manager;
    unsigned char *volatile pixels = NULL;
    unsigned char *volatile row = NULL;
    memset(out, 0, sizeof(*out));
    message[0] = 0;

    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = on_error;
    manager.base.emit_message = on_message;
    manager.message = message;
    if (setjmp(manager.jump)) {
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, (unsigned long)size);
    jpeg_read_header(&info, TRUE);

    int channels;
    int cmyk = 0;
    switch (info.jpeg_color_space) {
    case JCS_GRAYSCALE:
        info.out_color_space = JCS_GRAYSCALE;
        channels = 1;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        info.out_color_space = JCS_CMYK;
        channels = 3;
        cmyk = 1;
        break;
    default:
        info.out_color_space = JCS_RGB;
        channels = 3;
        break;
    }
    info.dct_method = JDCT_ISLOW;
    info.do_fancy_upsampling = TRUE;
    jpeg_start_decompress(&info);

    const size_t width = info.output_width;
    const size_t height = info.output_height;
    if (width == 0 || height == 0 || width > 65500 || height > 65500 ||
        (size_t)width * (size_t)height > IC_MAX_PIXELS) {
        snprintf(message, IC_MESSAGE_SIZE, "unsupported JPEG size %zux%zu", width, height);
        jpeg_destroy_decompress(&info);
        return 1;
    }
    const size_t stride = width * (size_t)channels;
    pixels = (unsigned char *)malloc(stride * height);
    if (cmyk) {
        row = (unsigned char *)malloc(width * 4);
    }
    if (pixels == NULL || (cmyk && row == NULL)) {
        snprintf(message, IC_MESSAGE_SIZE, "out of memory for a %zux%zu image", width, height);
        jpeg_destroy_decompress(&info);
        free(pixels);
        free(row);
        return 1;
    }
    while (info.output_scanline < info.output_height) {
        unsigned char *target = pixels + (size_t)info.output_scanline * stride;
        if (cmyk) {
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(&info, rows, 1);
            for (size_t x = 0; x < width; x++) {
                const unsigned char *p = row + 4 * x;
                target[3 * x] = blinn(p[0], p[3]);
                target[3 * x + 1] = blinn(p[1], p[3]);
                target[3 * x + 2] = blinn(p[2], p[3]);
            }
        } else {
            JSAMPROW rows[1] = {target};
            jpeg_read_scanlines(&info, rows, 1);
        }
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(row);
    out->pixels = pixels;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = channels;
    return 0;
}

int ic_encode_jpeg(const unsigned char *pixels, int width, int height, size_t stride, int channels,
                   int quality, unsigned char **out, size_t *out_size, char *message) {
    struct jpeg_compress_struct info;
    error_manager manager;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    *out = NULL;
    *out_size = 0;
    message[0] = 0;
    if (channels != 1 && channels != 3) {
        snprintf(message, IC_MESSAGE_SIZE, "JPEG needs 1 or 3 channels, got %d", channels);
        return 1;
    }
    info.err = jpeg_std_error(&manager.base);
    manager.base.error_exit = on_error;
    manager.message = message;
    if (setjmp(manager.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&info);
    unsigned char *target = NULL;
    jpeg_mem_dest(&info, &target, &buffer_size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = channels;
    info.in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(pixels + (size_t)info.next_scanline * stride)};
        jpeg_write_scanlines(&info, rows, 1);
    }
    jpeg_finish_compress(&info);
    buffer = target;
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = buffer_size;
    return 0;
}

void ic_free(void *pointer) { free(pointer); }
