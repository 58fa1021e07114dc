#ifndef SESSIONENGINE_CCRYPTO_SHIM_H
#define SESSIONENGINE_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>

/// A keyed HMAC-SHA256 context, or NULL if libcrypto refuses (a broken installation). The key
/// is set once; `se_hmac_sha256_compute` reuses it for every message without rehashing it.
static inline EVP_MAC_CTX *se_hmac_sha256_new(const unsigned char *key, size_t key_length) {
  EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
  if (mac == NULL) return NULL;
  EVP_MAC_CTX *context = EVP_MAC_CTX_new(mac);
  EVP_MAC_free(mac);
  if (context == NULL) return NULL;
  OSSL_PARAM params[2];
  params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)"SHA256", 0);
  params[1] = OSSL_PARAM_construct_end();
  if (EVP_MAC_init(context, key, key_length, params) != 1) {
    EVP_MAC_CTX_free(context);
    return NULL;
  }
  return context;
}

/// The 32-byte HMAC-SHA256 of `data` under the context's key, into `output`; 1 on success.
static inline int se_hmac_sha256_compute(
    EVP_MAC_CTX *context, const unsigned char *data, size_t length, unsigned char *output) {
  size_t written = 0;
  // A NULL key re-initialises the context with the key it has (OpenSSL 3).
  if (EVP_MAC_init(context, NULL, 0, NULL) != 1) return 0;
  if (length > 0 && EVP_MAC_update(context, data, length) != 1) return 0;
  if (EVP_MAC_final(context, output, &written, 32) != 1) return 0;
  return written == 32;
}
#endif
