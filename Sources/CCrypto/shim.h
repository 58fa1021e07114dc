#ifndef SESSIONENGINE_CCRYPTO_SHIM_H
#define SESSIONENGINE_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/modes.h>
#include <stdlib.h>
#include <string.h>

/// A GMAC key: GCM's GHASH state (libcrypto's `GCM128_CONTEXT`, which picks the carry-less
/// multiply where the CPU has it) over an AES-128 block cipher in an ECB context (AES-NI where
/// the CPU has it). A tag goes through no `EVP` parameter parsing: the `EVP` GCM path spent
/// about 2,000 instructions a tag looking up parameters by name.
typedef struct se_gmac {
  GCM128_CONTEXT *gcm;
  EVP_CIPHER_CTX *block;
} se_gmac;

/// One AES block under the ECB context `key`, for GHASH's key and each IV's first counter.
static void se_gmac_block(const unsigned char in[16], unsigned char out[16], const void *key) {
  int written = 0;
  if (EVP_EncryptUpdate((EVP_CIPHER_CTX *)key, out, &written, in, 16) != 1 || written != 16) {
    // Never for a context made by se_gmac_new; a tag from this block fails its check.
    memset(out, 0, 16);
  }
}

static inline void se_gmac_free(se_gmac *gmac) {
  if (gmac == NULL) return;
  if (gmac->gcm != NULL) CRYPTO_gcm128_release(gmac->gcm);
  EVP_CIPHER_CTX_free(gmac->block);
  free(gmac);
}

/// A GMAC key from 16 bytes (AES-128), or NULL if libcrypto refuses.
static inline se_gmac *se_gmac_new(const unsigned char *key16) {
  se_gmac *gmac = calloc(1, sizeof(se_gmac));
  if (gmac == NULL) return NULL;
  gmac->block = EVP_CIPHER_CTX_new();
  if (gmac->block == NULL
      || EVP_EncryptInit_ex(gmac->block, EVP_aes_128_ecb(), NULL, key16, NULL) != 1
      || EVP_CIPHER_CTX_set_padding(gmac->block, 0) != 1) {
    se_gmac_free(gmac);
    return NULL;
  }
  gmac->gcm = CRYPTO_gcm128_new(gmac->block, se_gmac_block);
  if (gmac->gcm == NULL) {
    se_gmac_free(gmac);
    return NULL;
  }
  return gmac;
}

/// The 16-byte GMAC (GCM with no plaintext, `data` as additional data) of `data` under the
/// 12-byte `iv`, into `tag16`; 1 on success.
static inline int se_gmac_compute(
    se_gmac *gmac, const unsigned char *iv12, const unsigned char *data, size_t length,
    unsigned char *tag16) {
  CRYPTO_gcm128_setiv(gmac->gcm, iv12, 12);
  if (length > 0 && CRYPTO_gcm128_aad(gmac->gcm, data, length) != 0) return 0;
  CRYPTO_gcm128_tag(gmac->gcm, tag16, 16);
  return 1;
}
#endif
