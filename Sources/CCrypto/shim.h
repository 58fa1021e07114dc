#ifndef SESSIONENGINE_CCRYPTO_SHIM_H
#define SESSIONENGINE_CCRYPTO_SHIM_H
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/crypto.h>
#endif
