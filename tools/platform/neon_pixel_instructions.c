// The driver tools/platform/neon_pixel_instructions.sh counts instructions of: one image kernel of CImageCodecs,
// portable or vector, run REPS times on a fixed input. It prints the pixels one run converts.
//   neon_pixel_instructions KIND KERNEL REPS
//   KIND: warp-upright (224x224 RGB tensor rows from a 640x480 RGB photo, scaled), warp-rotated (the
//   same turned 30 degrees, the next row's lines prefetched as BilinearWarp does), i420-rgb, i420-xrgb
//   (256x64 pixels to I420), xrgb-rgb (256x64 RGB to xRGB words); KERNEL: portable or vector.
#include "image_codecs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PHOTO_W = 640, PHOTO_H = 480, TENSOR = 224, ROWS = 8, FRAME_W = 256, FRAME_H = 64 };
static unsigned char photo[PHOTO_W * PHOTO_H * 4], frame[FRAME_W * FRAME_H * 4];
static unsigned char out_bytes[FRAME_W * FRAME_H * 4];
static float tensor[TENSOR * 3];
static int32_t coordinates[ROWS + 1][2 * TENSOR];

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: neon_pixel_instructions KIND portable|vector REPS\n"); return 2; }
    const char *kind = argv[1];
    const int kernel = strcmp(argv[2], "vector") == 0 ? IC_KERNEL_VECTOR : IC_KERNEL_PORTABLE, reps = atoi(argv[3]);
    unsigned state = 1;
    for (size_t i = 0; i < sizeof photo; i++) photo[i] = (unsigned char)((state = state * 1103515245u + 12345u) >> 24);
    memcpy(frame, photo, sizeof frame);
    long pixels = 0;
    int status = 0;
    if (strncmp(kind, "warp-", 5) == 0) {
        // A 400x400 crop at the photo's centre, upright or turned 30 degrees, onto the tensor.
        const int rotated = strcmp(kind, "warp-rotated") == 0;
        const double angle = rotated ? M_PI / 6 : 0, scale = 400.0 / TENSOR;
        const double c = cos(angle) * scale, s = sin(angle) * scale, half = TENSOR / 2.0;
        const double m[9] = {c, -s, 320 - c * half + s * half, s, c, 240 - s * half - c * half, 0, 0, 1};
        for (int y = 0; y <= ROWS; y++) ic_warp_coordinates(m, 100 + y, TENSOR, TENSOR, coordinates[y]);
        const ic_warp_source source = {photo, PHOTO_W, PHOTO_H, 3, 0, 1, 2, 0};
        for (int r = 0; r < reps; r++)
            for (int y = 0; y < ROWS; y++)
                status |= ic_warp_row_kernel(&source, coordinates[y], rotated ? coordinates[y + 1] : NULL, TENSOR,
                                             tensor, -1.0f, 2.0f / 255.0f, kernel);
        pixels = (long)ROWS * TENSOR;
    } else if (strncmp(kind, "i420-", 5) == 0) {
        const int bpp = strcmp(kind, "i420-rgb") == 0 ? 3 : 4;
        for (int r = 0; r < reps; r++)
            status |= ic_pack_i420_kernel(frame, (size_t)FRAME_W * bpp, FRAME_W, FRAME_H,
                                          bpp == 3 ? IC_LAYOUT_RGB : IC_LAYOUT_BGRX, out_bytes, kernel);
        pixels = (long)FRAME_W * FRAME_H;
    } else if (strcmp(kind, "xrgb-rgb") == 0) {
        for (int r = 0; r < reps; r++)
            status |= ic_expand_xrgb_kernel(frame, (size_t)FRAME_W * 3, 3, out_bytes, (size_t)FRAME_W * 4, FRAME_W,
                                            FRAME_H, kernel);
        pixels = (long)FRAME_W * FRAME_H;
    } else {
        fprintf(stderr, "neon_pixel_instructions: unknown kind %s\n", kind);
        return 2;
    }
    if (status != 0) { fprintf(stderr, "neon_pixel_instructions: no %s kernel on this CPU\n", argv[2]); return 1; }
    printf("%ld\n", pixels);
    return 0;
}
