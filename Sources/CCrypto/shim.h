#ifndef SESSIONENGINE_CCRYPTO_SHIM_H
#define SESSIONENGINE_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>

/// An AES-128-GCM context keyed with 16 bytes, for GMAC tags (GCM over no plaintext, the
/// message as additional data), or NULL if libcrypto refuses.
static inline EVP_CIPHER_CTX *se_gmac_new(const unsigned char *key16) {
  EVP_CIPHER_CTX *context = EVP_CIPHER_CTX_new();
  if (context == NULL) return NULL;
  if (EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), NULL, key16, NULL) != 1) {
    EVP_CIPHER_CTX_free(context);
    return NULL;
  }
  return context;
}

/// The 16-byte GMAC of `data` under the context's key and the 12-byte `iv`, into `tag16`;
/// 1 on success. The key schedule is kept: only the IV is set per message.
static inline int se_gmac_compute(
    EVP_CIPHER_CTX *context, const unsigned char *iv12, const unsigned char *data, size_t length,
    unsigned char *tag16) {
  int written = 0;
  if (length > 0x7FFFFFFF) return 0;
  if (EVP_EncryptInit_ex(context, NULL, NULL, NULL, iv12) != 1) return 0;
  if (length > 0 && EVP_EncryptUpdate(context, NULL, &written, data, (int)length) != 1) return 0;
  if (EVP_EncryptFinal_ex(context, tag16, &written) != 1) return 0;
  return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, tag16) == 1;
}
#endif
