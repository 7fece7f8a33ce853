/*
 * Normalizer (l2) in C, the same two passes as src/engine/normalizer.ts: per block of
 * rows (256 KiB of input), the squared norms column by column, then each column divided
 * into a freshly malloc'd output, freed after the call (as a caller would). Built and run
 * by bench/normalizer-floor.ts: `normalizer-floor ROWS COLS REPEATS` prints one line of
 * JSON with every repeat's seconds, after one untimed warm-up call.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static void normalize(double **cols, double **out, size_t rows, size_t width, double *norms, size_t block) {
  for (size_t start = 0; start < rows; start += block) {
    size_t len = start + block < rows ? block : rows - start;
    for (size_t k = 0; k < len; k++) norms[k] = 0;
    for (size_t c = 0; c < width; c++) {
      const double *x = cols[c] + start;
      for (size_t k = 0; k < len; k++) norms[k] += x[k] * x[k];
    }
    for (size_t k = 0; k < len; k++) norms[k] = norms[k] < 2.220446049250313e-15 ? 1.0 : sqrt(norms[k]);
    for (size_t c = 0; c < width; c++) {
      const double *x = cols[c] + start;
      double *o = out[c] + start;
      for (size_t k = 0; k < len; k++) o[k] = x[k] / norms[k];
    }
  }
}

static double run(double **cols, size_t rows, size_t width, double *norms, size_t block) {
  double **out = malloc(width * sizeof *out);
  double t0 = now();
  for (size_t c = 0; c < width; c++) out[c] = malloc(rows * sizeof(double));
  normalize(cols, out, rows, width, norms, block);
  double elapsed = now() - t0;
  volatile double sink = out[width - 1][rows - 1];
  (void)sink;
  for (size_t c = 0; c < width; c++) free(out[c]);
  free(out);
  return elapsed;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: normalizer-floor ROWS COLS REPEATS\n");
    return 2;
  }
  size_t rows = strtoul(argv[1], NULL, 10), width = strtoul(argv[2], NULL, 10);
  int repeats = atoi(argv[3]);
  double **cols = malloc(width * sizeof *cols);
  unsigned long long state = 42;
  for (size_t c = 0; c < width; c++) {
    cols[c] = malloc(rows * sizeof(double));
    for (size_t i = 0; i < rows; i++) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      cols[c][i] = (double)(state >> 11) / 9007199254740992.0 * 100.0 - 50.0;
    }
  }
  size_t block = 256 * 1024 / (8 * width);
  if (block < 256) block = 256;
  double *norms = malloc(block * sizeof(double));
  run(cols, rows, width, norms, block);
  printf("[");
  for (int r = 0; r < repeats; r++) printf(r ? ",%.6f" : "%.6f", run(cols, rows, width, norms, block));
  printf("]\n");
  return 0;
}
