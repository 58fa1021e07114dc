#ifndef SESSIONENGINE_CLIBUV_SHIM_H
#define SESSIONENGINE_CLIBUV_SHIM_H
#include <uv.h>

#if defined(__linux__)
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

/// The kernel's `struct mmsghdr`, declared here since glibc declares it (and `sendmmsg`) only
/// under `_GNU_SOURCE`, which a module's header cannot set for the system headers.
struct se_mmsghdr {
  struct msghdr msg_hdr;
  unsigned int msg_len;
};

/// The most copies one `se_udp_fanout` call hands the kernel in one `sendmmsg`.
#define SE_UDP_FANOUT_BATCH 64

/// Sends one datagram to 127.0.0.1 at each of `count` ports (network byte order) with as few
/// `sendmmsg` calls as it takes (libuv 1.44 has no batched send: this is the shim the
/// library's `UDPSocket.trySend(lent:toPorts:)` calls). Stops at the first copy the kernel
/// refuses. Returns how many copies the kernel took; `*error` is 0, or the positive errno of
/// the refusal (`EAGAIN` when the send buffer is full).
static inline unsigned int se_udp_fanout(
    int fd, const void *bytes, size_t length, const unsigned short *ports, unsigned int count,
    int *error) {
  struct se_mmsghdr messages[SE_UDP_FANOUT_BATCH];
  struct sockaddr_in addresses[SE_UDP_FANOUT_BATCH];
  struct iovec vector;
  unsigned int done = 0;
  vector.iov_base = (void *)bytes;
  vector.iov_len = length;
  *error = 0;
  while (done < count) {
    unsigned int batch = count - done;
    if (batch > SE_UDP_FANOUT_BATCH) batch = SE_UDP_FANOUT_BATCH;
    for (unsigned int i = 0; i < batch; i++) {
      memset(&addresses[i], 0, sizeof(addresses[i]));
      addresses[i].sin_family = AF_INET;
      addresses[i].sin_port = ports[done + i];
      addresses[i].sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      memset(&messages[i], 0, sizeof(messages[i]));
      messages[i].msg_hdr.msg_name = &addresses[i];
      messages[i].msg_hdr.msg_namelen = sizeof(addresses[i]);
      messages[i].msg_hdr.msg_iov = &vector;
      messages[i].msg_hdr.msg_iovlen = 1;
    }
    int sent;
    do {
      sent = (int)syscall(SYS_sendmmsg, fd, messages, batch, MSG_DONTWAIT);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
      *error = errno;
      return done;
    }
    if (sent == 0) {
      *error = EAGAIN;
      return done;
    }
    // A part of the batch taken: the loop asks again from the first copy refused, and learns
    // why (EAGAIN when the buffer is full).
    done += (unsigned int)sent;
  }
  return done;
}

/// Whether this build can batch sends (`se_udp_fanout`).
#define SE_HAS_UDP_FANOUT 1
#else
#define SE_HAS_UDP_FANOUT 0
#endif

/// The C heap in use, bytes (glibc's `mallinfo2`: allocated chunks plus mapped blocks), for
/// `sessionbench soak` to tell memory in use from freed memory the allocator keeps; 0 where
/// there is no `mallinfo2`.
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>
static inline size_t se_heap_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}
#else
static inline size_t se_heap_in_use(void) { return 0; }
#endif

/// ThreadSanitizer annotations for a hand-off it cannot see: `Synchronization.Mutex` takes a
/// contended lock in the toolchain's uninstrumented library (Docs/Reliability.md), so what a
/// thread wrote before posting work to an `EventLoop` looked unordered with what the loop
/// thread read when it ran that work. The loop releases an address when work is posted and
/// acquires it when it takes the inbox. They cost nothing without ThreadSanitizer; with it,
/// they need `-Xcc -fsanitize=thread`, which `scripts/sanitize thread` passes (the Swift
/// compiler does not pass its sanitizer on to the C it compiles).
#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SE_TSAN_ANNOTATIONS 1
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#endif
#endif
static inline void se_tsan_release(void *addr) {
#if defined(SE_TSAN_ANNOTATIONS)
  __tsan_release(addr);
#else
  (void)addr;
#endif
}
static inline void se_tsan_acquire(void *addr) {
#if defined(SE_TSAN_ANNOTATIONS)
  __tsan_acquire(addr);
#else
  (void)addr;
#endif
}

#endif
