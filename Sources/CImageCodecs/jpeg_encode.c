// JPEG encoding through libjpeg-turbo, with errors turned into return codes. (Decoding is in
// jpeg_decode.c: stb_image, the decoder MediaPipe uses.)
#include "image_codecs.h"
#include "codec_message.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

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

int ic_encode_jpeg(const unsigned char *pixels, int width, int height, size_t stride, int channels,
                   int quality, unsigned char **out, size_t *out_size, char *message) {
    struct jpeg_compress_struct info;
    error_manager manager;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    *out = NULL;
    *out_size = 0;
    message[0] = 0;
    if (channels != 1 && channels != 3) return ic_fail(message, "JPEG needs 1 or 3 channels, got %d", channels);
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
