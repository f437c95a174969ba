// Pixels turned as a JPEG's EXIF orientation says (ic_turn_rows, image_codecs.h): what MediaPipe's file
// loader does to a photo taken sideways. The JPEG decoder turns each band of rows as it makes them
// (no second picture); a picture decoded whole is turned a band at a time into a new one.
#include "image_codecs.h"

#include <stdint.h>
#include <string.h>

int ic_turn_swaps_sides(int exif) { return exif >= 5 && exif <= 8; }

void ic_turn_rows(const unsigned char *rows, int count, int first, int width, int height, int channels, int exif,
                  unsigned char *target) {
    const size_t bpp = (size_t)channels;
    if (exif < 2 || exif > 8) {
        memcpy(target + (size_t)first * width * bpp, rows, (size_t)count * width * bpp);
        return;
    }
    if (exif <= 4) {
        // A row stays a row: mirrored (2), upside down (4), or both (3).
        int mirrored = exif != 4;
        for (int k = 0; k < count; k++) {
            int y = exif == 2 ? first + k : height - 1 - (first + k);
            const unsigned char *from = rows + (size_t)k * width * bpp;
            unsigned char *to = target + (size_t)y * width * bpp;
            if (!mirrored) {
                memcpy(to, from, (size_t)width * bpp);
                continue;
            }
            for (int x = 0; x < width; x++) memcpy(to + (size_t)(width - 1 - x) * bpp, from + (size_t)x * bpp, bpp);
        }
        return;
    }
    // A row becomes a column of the turned picture (`height` wide): source column x of these `count`
    // rows is one run of `count` pixels in turned row x (5, 6) or width - 1 - x (7, 8), from column
    // `first` left to right (5, 8) or from height - 1 - first right to left (6, 7).
    const size_t turned_width = (size_t)height;
    int forward = exif == 5 || exif == 8;
    for (int x = 0; x < width; x++) {
        int y = exif == 5 || exif == 6 ? x : width - 1 - x;
        unsigned char *run = target + ((size_t)y * turned_width + (size_t)(forward ? first : height - first - count)) * bpp;
        const unsigned char *from = rows + (size_t)x * bpp;
        if (channels == 3) {
            // Left to right along the run, four bytes a pixel, each store's fourth byte overwritten by
            // the next pixel's; the last pixel, whose fourth byte is another run's, three bytes.
            for (int i = 0; i + 1 < count; i++) {
                uint32_t pixel = 0;
                memcpy(&pixel, from + (size_t)(forward ? i : count - 1 - i) * width * 3, 3);
                memcpy(run + 3 * (size_t)i, &pixel, 4);
            }
            if (count > 0) memcpy(run + 3 * (size_t)(count - 1), from + (size_t)(forward ? count - 1 : 0) * width * 3, 3);
        } else {
            for (int k = 0; k < count; k++) {
                memcpy(run + bpp * (size_t)(forward ? k : count - 1 - k), from + (size_t)k * width * bpp, bpp);
            }
        }
    }
}
