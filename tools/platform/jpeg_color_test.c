// The JPEG decoder's vector YCbCr-to-RGB row (CImageCodecs/jpeg_decode.c: NEON on AArch64, AVX2 on
// x86-64) against stb_image's own row on every (Y, Cb, Cr) triple, from an aligned and an odd start,
// and on short rows (the one-pixel tail). Built for aarch64 and run under qemu-aarch64 by
// tools/platform/test_neon_kernels.sh, so the NEON row is checked on an x86-64 host; VisionCoreTests'
// JPEGDecoderBuildTests checks the row of the CPU it runs on. Exit status 1 on any difference.
#include "image_codecs.h"

#include <stdio.h>
#include <string.h>

enum { COUNT = 65536 };
static unsigned char y[COUNT], cb[COUNT], cr[COUNT];
// Room for the byte stb's row writes after its last pixel.
static unsigned char stb[3 * COUNT + 1], vector[3 * COUNT + 1];

int main(void) {
    long differing = 0, rows = 0;
    for (int i = 0; i < COUNT; i++) {
        cb[i] = (unsigned char)(i & 255);
        cr[i] = (unsigned char)(i >> 8);
    }
    for (int level = 0; level < 256; level++) {
        memset(y, level, sizeof y);
        const int starts[2] = {0, 5}, lengths[2] = {COUNT, COUNT - 16};
        for (int k = 0; k < 2; k++) {
            const int s = starts[k], n = lengths[k];
            if (ic_jpeg_ycbcr_to_rgb(stb, y + s, cb + s, cr + s, n, IC_JPEG_COLOR_STB) != 0 ||
                ic_jpeg_ycbcr_to_rgb(vector, y + s, cb + s, cr + s, n, IC_JPEG_COLOR_VECTOR) != 0) {
                fprintf(stderr, "jpeg colour: no vector row on this CPU\n");
                return 1;
            }
            differing += memcmp(stb, vector, 3 * (size_t)n) != 0;
            rows++;
        }
    }
    for (int n = 1; n < 40; n++, rows++) {
        for (int i = 0; i < n; i++) {
            y[i] = (unsigned char)(i * 97);
            cb[i] = (unsigned char)(i * 31 + 7);
            cr[i] = (unsigned char)(i * 57 + 200);
        }
        ic_jpeg_ycbcr_to_rgb(stb, y, cb, cr, n, IC_JPEG_COLOR_STB);
        ic_jpeg_ycbcr_to_rgb(vector, y, cb, cr, n, IC_JPEG_COLOR_VECTOR);
        differing += memcmp(stb, vector, 3 * (size_t)n) != 0;
    }
    printf("jpeg colour: %ld of %ld rows differ\n", differing, rows);
    return differing != 0;
}
