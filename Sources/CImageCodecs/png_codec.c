// PNG through libpng, with errors turned into return codes; the common files first through
// libdeflate (png_deflate_decode.c), which gives the same pixels with fewer instructions.
#include "image_codecs.h"
#include "codec_message.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

typedef struct {
    const unsigned char *data;
    size_t size;
    size_t offset;
} memory_reader;

typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
    int failed;
} memory_writer;

// Keeps libpng's message and unwinds to the setjmp in this file (C frames only).
static void on_error(png_structp png, png_const_charp text) {
    char *message = (char *)png_get_error_ptr(png);
    snprintf(message, IC_MESSAGE_SIZE, "%s", text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void read_memory(png_structp png, png_bytep target, png_size_t length) {
    memory_reader *reader = (memory_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        png_error(png, "file is truncated");
    }
    memcpy(target, reader->data + reader->offset, length);
    reader->offset += length;
}

static void write_memory(png_structp png, png_bytep source, png_size_t length) {
    memory_writer *writer = (memory_writer *)png_get_io_ptr(png);
    if (writer->size + length > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity : 65536;
        while (capacity < writer->size + length) {
            capacity *= 2;
        }
        unsigned char *grown = (unsigned char *)realloc(writer->data, capacity);
        if (grown == NULL) {
            png_error(png, "out of memory");
        }
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, source, length);
    writer->size += length;
}

static void flush_memory(png_structp png) { (void)png; }

int ic_decode_png(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message) {
    message[0] = 0;
    if (ic_decode_png_deflate(data, size, max_pixels, out) == 0) return 0;
    return ic_decode_png_libpng(data, size, max_pixels, out, message);
}

int ic_decode_png_in_place(unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message) {
    message[0] = 0;
    if (ic_decode_png_deflate_in_place(data, size, max_pixels, out) == 0) return 0;
    return ic_decode_png_libpng(data, size, max_pixels, out, message);
}

int ic_decode_png_libpng(const unsigned char *data, size_t size, size_t max_pixels, ic_image *out, char *message) {
    memset(out, 0, sizeof(*out));
    message[0] = 0;
    if (size < 8 || png_sig_cmp(data, 0, 8) != 0) return ic_fail(message, "not a PNG file (bad signature)");
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
    if (png == NULL) return ic_fail(message, "cannot create a PNG reader");
    png_infop info = png_create_info_struct(png);
    unsigned char *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    volatile int too_many_pixels = 0;
    memory_reader reader = {data, size, 0};
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, info ? &info : NULL, NULL);
        ic_pixels_free(pixels);
        free(rows);
        if (too_many_pixels) {
            return IC_TOO_MANY_PIXELS;
        }
        if (message[0] == 0) {
            snprintf(message, IC_MESSAGE_SIZE, "cannot create a PNG reader");
        }
        return 1;
    }
    png_set_read_fn(png, &reader, read_memory);
    png_set_crc_action(png, PNG_CRC_ERROR_QUIT, PNG_CRC_ERROR_QUIT);
    // Text, colour-profile and palette-suggestion chunks are of no use here, and libpng would inflate each
    // compressed one up to 8 MB and keep up to a thousand (8 GB from an 8 MB file): they are skipped, as
    // are unknown chunks, and few other ancillary chunks are kept.
    static const png_byte skipped[] = "tEXt\0zTXt\0iTXt\0iCCP\0sPLT\0";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, skipped, 5);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, 0);
    png_set_chunk_cache_max(png, 16);
    png_read_info(png, info);

    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int bit_depth = png_get_bit_depth(png, info);
    if (width == 0 || height == 0 || width > 65500 || height > 65500) {
        char text[96];
        snprintf(text, sizeof text, "unsupported PNG size %ux%u", (unsigned)width, (unsigned)height);
        png_error(png, text);
    }
    // Checked from the header, before any row is read or pixel memory allocated.
    if ((size_t)width * (size_t)height > max_pixels) {
        out->width = (int)width;
        out->height = (int)height;
        too_many_pixels = 1;
        png_error(png, "too many pixels");
    }
    if (color_type == PNG_COLOR_TYPE_PALETTE) {
        png_set_palette_to_rgb(png);
    }
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) {
        png_set_expand_gray_1_2_4_to_8(png);
    }
    if (png_get_valid(png, info, PNG_INFO_tRNS)) {
        png_set_tRNS_to_alpha(png);
    }
    if (bit_depth == 16) {
        png_set_strip_16(png);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, info);

    int channels = png_get_channels(png, info);
    if (png_get_bit_depth(png, info) != 8 || channels < 1 || channels > 4) {
        png_error(png, "unsupported PNG pixel layout");
    }
    size_t stride = (size_t)width * (size_t)channels;
    if (png_get_rowbytes(png, info) != stride) {
        png_error(png, "unexpected PNG row size");
    }
    pixels = (unsigned char *)ic_pixels_alloc(stride * height);
    rows = (png_bytep *)malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) {
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) {
        rows[y] = pixels + (size_t)y * stride;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    out->pixels = pixels;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = channels;
    return 0;
}

int ic_encode_png(const unsigned char *pixels, int width, int height, size_t stride, int channels, int level,
                  unsigned char **out, size_t *out_size, char *message) {
    *out = NULL;
    *out_size = 0;
    message[0] = 0;
    static const int types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                 PNG_COLOR_TYPE_RGB_ALPHA};
    if (channels < 1 || channels > 4) return ic_fail(message, "PNG needs 1 to 4 channels, got %d", channels);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, message, on_error, on_warning);
    if (png == NULL) return ic_fail(message, "cannot create a PNG writer");
    png_infop info = png_create_info_struct(png);
    memory_writer writer = {NULL, 0, 0, 0};
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(writer.data);
        if (message[0] == 0) {
            snprintf(message, IC_MESSAGE_SIZE, "cannot create a PNG writer");
        }
        return 1;
    }
    png_set_write_fn(png, &writer, write_memory, flush_memory);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, types[channels],
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level < 1 ? 1 : level > 9 ? 9 : level);
    png_write_info(png, info);
    for (int y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = writer.data;
    *out_size = writer.size;
    return 0;
}
