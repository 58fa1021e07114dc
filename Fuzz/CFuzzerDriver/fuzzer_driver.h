#ifndef SESSIONENGINE_CFUZZERDRIVER_H
#define SESSIONENGINE_CFUZZERDRIVER_H

#include <stddef.h>
#include <stdint.h>

/// libFuzzer's driver, for a program that has its own `main` (libFuzzer's `FuzzerDriver.cpp`):
/// parses the libFuzzer flags in `argv` and runs `callback` on each input, in this process (and
/// in children it starts with the same arguments for `-fork` and `-merge`). Defined only in a
/// program linked with `-sanitize=fuzzer`; `sessionfuzz` calls it only when built so
/// (`-DFUZZING`, by `scripts/fuzz`).
int LLVMFuzzerRunDriver(int *argc, char ***argv,
                        int (*callback)(const uint8_t *data, size_t size));

#endif
