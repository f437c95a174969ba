// Damages JPEG files at random and runs each copy through our structure check and stb_image,
// as VisionCore decodes a JPEG, under AddressSanitizer and UndefinedBehaviorSanitizer.
// Any memory fault aborts with a report; the run ends with counts.
//
// Build and run from the repository root (Debian: gcc, libstb-dev):
//   gcc -O1 -g -fsanitize=address,undefined -fno-sanitize=shift,signed-integer-overflow \
//       -fno-sanitize-recover=all -I/usr/include/stb -ISources/CImageCodecs/include \
//       tools/fuzz_jpeg.c Sources/CImageCodecs/jpeg_structure.c -o /tmp/fuzz_jpeg -lm
//   ASAN_OPTIONS=detect_leaks=0 /tmp/fuzz_jpeg SEED ROUNDS Tests/Fixtures/images/jpeg-variants/*.jpg
// (shift and signed overflow are left out: stb_image relies on them in its arithmetic.)
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../Sources/CImageCodecs/jpeg_structure.h"

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size);
    if (!bytes || fread(bytes, 1, *size, f) != *size) { fprintf(stderr, "%s: read failed\n", path); exit(2); }
    fclose(f);
    return bytes;
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: %s SEED ROUNDS FILE.jpg...\n", argv[0]); return 2; }
    srand((unsigned)atoi(argv[1]));
    const int rounds = atoi(argv[2]);
    long total = 0, passed = 0, decoded = 0;
    for (int file = 3; file < argc; file++) {
        size_t size;
        unsigned char *original = read_file(argv[file], &size);
        unsigned char *bytes = malloc(size);
        for (int round = 0; round < rounds; round++) {
            memcpy(bytes, original, size);
            size_t length = size;
            for (int k = 1 + rand() % 8; k > 0; k--) {
                size_t at = (size_t)rand() % length;
                switch (rand() % 5) {
                case 0: bytes[at] ^= (unsigned char)(1 << (rand() % 8)); break;
                case 1: bytes[at] = (unsigned char)rand(); break;
                case 2: bytes[at] = (rand() % 2) ? 0xFF : 0x00; break;
                case 3: if (at + 2 < length) { bytes[at] = 0xFF; bytes[at + 1] = 0xD9; } break;
                default: if (at > 8 && rand() % 4 == 0) length = at + 1; break;
                }
            }
            total++;
            char message[256];
            if (ic_check_jpeg_structure(bytes, length, message)) continue;
            passed++;
            int w, h, c;
            if (!stbi_info_from_memory(bytes, (int)length, &w, &h, &c) || (size_t)w * (size_t)h > ((size_t)1 << 27)) continue;
            unsigned char *pixels = stbi_load_from_memory(bytes, (int)length, &w, &h, &c, 0);
            if (pixels) {
                decoded++;
                volatile unsigned sum = 0;
                for (size_t i = 0; i < (size_t)w * h * c; i += 4096) sum += pixels[i];
                stbi_image_free(pixels);
            }
        }
        free(bytes);
        free(original);
    }
    printf("%ld damaged copies: %ld passed the structure check, %ld decoded, no fault\n", total, passed, decoded);
    return 0;
}
