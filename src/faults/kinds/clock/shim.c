/*
 * zklab's clock shim: preloaded into every node (LD_PRELOAD), it makes the wall clock of that node's processes read
 * what the lab's clock file says, and leaves every other clock alone. Only CLOCK_REALTIME and CLOCK_REALTIME_COARSE
 * are faked (clock_gettime, gettimeofday, time); CLOCK_MONOTONIC and the rest pass through untouched, so timeouts,
 * sleeps and ZooKeeper's session expiry keep real time.
 *
 * The clock file (env ZKLAB_CLOCK_FILE, 32 bytes, written by the controller: src/faults/kinds/clock/clock-file.ts):
 *   u64 seq (a seqlock: odd while being written), i64 baseRealNs, i64 baseFakeNs, f64 rate;
 *   fake = baseFake + (real - baseReal) * rate. A missing or short file, or a rate that is not above 0, is no fault.
 * It is mapped read-only once, when the library loads; after that the hot path makes no system call beyond the real
 * clock's (itself the vDSO), takes no lock and allocates nothing: safe in a signal handler.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

struct clock_file {
  uint64_t seq;
  int64_t base_real_ns;
  int64_t base_fake_ns;
  double rate;
};

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);

static const volatile struct clock_file *shared;
static clock_gettime_fn real_clock_gettime;
static gettimeofday_fn real_gettimeofday;

static int real_now(clockid_t id, struct timespec *ts) {
  if (real_clock_gettime) return real_clock_gettime(id, ts);
  return (int)syscall(SYS_clock_gettime, id, ts);
}

__attribute__((constructor)) static void zklab_clock_init(void) {
  real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
  real_gettimeofday = (gettimeofday_fn)dlsym(RTLD_NEXT, "gettimeofday");
  const char *path = getenv("ZKLAB_CLOCK_FILE");
  if (path == NULL || *path == '\0') return;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && st.st_size >= (off_t)sizeof(struct clock_file)) {
    void *p = mmap(NULL, sizeof(struct clock_file), PROT_READ, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED) shared = (const volatile struct clock_file *)p;
  }
  close(fd);
}

/* The fake wall time for a real one, in ns; the real one when no fault is set. */
static int64_t fake_ns(int64_t real) {
  const volatile struct clock_file *f = shared;
  if (f == NULL) return real;
  for (int tries = 0; tries < 1000; tries++) {
    uint64_t before = __atomic_load_n(&f->seq, __ATOMIC_ACQUIRE);
    if (before & 1) continue;
    int64_t base_real = f->base_real_ns;
    int64_t base_fake = f->base_fake_ns;
    double rate = f->rate;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (__atomic_load_n(&f->seq, __ATOMIC_RELAXED) != before) continue;
    if (!(rate > 0)) return real;
    int64_t since = real - base_real;
    if (rate == 1.0) return base_fake + since;
    return base_fake + (int64_t)((double)since * rate);
  }
  return real; /* a writer that died mid-write: better true time than a hang */
}

static int64_t to_ns(const struct timespec *ts) { return (int64_t)ts->tv_sec * 1000000000LL + ts->tv_nsec; }

static void from_ns(int64_t ns, struct timespec *ts) {
  int64_t sec = ns / 1000000000LL, rem = ns % 1000000000LL;
  if (rem < 0) {
    rem += 1000000000LL;
    sec -= 1;
  }
  ts->tv_sec = (time_t)sec;
  ts->tv_nsec = (long)rem;
}

static int faked(clockid_t id) { return id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE; }

int clock_gettime(clockid_t id, struct timespec *ts) {
  int r = real_now(id, ts);
  if (r == 0 && faked(id) && shared != NULL) from_ns(fake_ns(to_ns(ts)), ts);
  return r;
}

int __clock_gettime(clockid_t id, struct timespec *ts) { return clock_gettime(id, ts); }

int gettimeofday(struct timeval *tv, void *tz) {
  if (tz != NULL) {
    struct timeval ignored;
    if (real_gettimeofday) real_gettimeofday(&ignored, tz);
  }
  if (tv == NULL) return 0;
  struct timespec ts;
  int r = clock_gettime(CLOCK_REALTIME, &ts);
  if (r != 0) return r;
  tv->tv_sec = ts.tv_sec;
  tv->tv_usec = ts.tv_nsec / 1000;
  return 0;
}

time_t time(time_t *out) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return (time_t)-1;
  if (out != NULL) *out = ts.tv_sec;
  return ts.tv_sec;
}

int timespec_get(struct timespec *ts, int base) {
  if (base != TIME_UTC || clock_gettime(CLOCK_REALTIME, ts) != 0) return 0;
  return base;
}
