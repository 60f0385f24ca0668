// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fake uverbs kernel's event files (see t_uverbs.h): the async event
 * file of a context and the completion channels. Each is an eventfd the
 * fake hands out at a fixed number; the fake keeps the records of its
 * queue and interposes read() on it, so that a library reads
 * them as it reads the kernel's: one whole record per read(), EINVAL for
 * a buffer too small, a wait while the queue is empty unless the file is
 * non-blocking (EAGAIN). The eventfd's counter is kept non-zero exactly
 * while records are queued or the file is closed, so poll() and epoll on
 * it behave as on the kernel's file.
 *
 * Disassociation is what a hardware driver's removal does to every open
 * context (drivers/infiniband/core/uverbs_main.c): commands fail with
 * EIO, the async file gets one IBV_EVENT_DEVICE_FATAL and then reads
 * EIO, completion channels wake their readers with EIO, and the memory
 * the driver shared is no longer the driver's: its mappings read zeroes.
 *
 * One lock guards the whole fake (t_uv_lock()), so that threads may call
 * verbs at once; fork() takes it, so a child never inherits it held.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "t_uverbs.h"

/* Files the fake hands out get fixed numbers, the same on both libraries. */
#define FD_BASE 600
#define FD_WRAP 900 /* ... and come round again, below RLIMIT_NOFILE */
#define FD_MAX 1024
#define QUEUE_LEN 64
#define MAX_MAPS 256

enum counter { NO_COUNT, COMP_COUNT, ASYNC_COUNT };

struct record {
	size_t len;
	uint8_t bytes[sizeof(struct ib_uverbs_async_event_desc)];
	enum counter counter; /* which count of the object reading it raises */
	uint64_t element; /* the object's user handle */
};

/*
 * An object that has events, and those of them the library has read:
 * what the kernel reports when it is destroyed, so that the destroy
 * waits for the acknowledgement of each (drivers/infiniband/core's
 * events_reported counts an event when read() takes it).
 */
struct tracked {
	bool used;
	uint32_t handle;
	uint64_t user;
	uint32_t comp, async;
};

#define MAX_TRACKED 512

struct file {
	bool open;
	bool closed; /* disassociated: reads end in EIO */
	enum t_uv_file_kind kind;
	unsigned int head, n;
	struct record queue[QUEUE_LEN];
};

/* A mapping of a fake command file: the driver's memory, shared. */
struct map {
	void *addr;
	size_t len;
	int prot;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct file files[FD_MAX];
static int next_fd = FD_BASE;
static struct map maps[MAX_MAPS];
static struct tracked objs[MAX_TRACKED];
static bool gone;

void t_uv_lock(void)
{
	pthread_mutex_lock(&lock);
}

void t_uv_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void files_init(void)
{
	pthread_atfork(t_uv_lock, t_uv_unlock, t_uv_unlock);
}

bool t_uv_gone(void)
{
	return gone;
}

void t_uv_reset_files(void)
{
	gone = false;
	memset(objs, 0, sizeof(objs));
}

/* Called with the fake's lock held, from the create commands' answers. */
void t_uv_track(uint32_t handle, uint64_t user)
{
	for (unsigned int i = 0; i < MAX_TRACKED; i++)
		if (!objs[i].used) {
			objs[i] = (struct tracked){ true, handle, user, 0, 0 };
			return;
		}
	abort(); /* more live objects than any test makes */
}

static struct tracked *tracked_by_user(uint64_t user)
{
	for (unsigned int i = 0; i < MAX_TRACKED; i++)
		if (objs[i].used && objs[i].user == user)
			return &objs[i];
	return NULL;
}

/* Drops @f's unread records of @user, as the kernel does at destroy. */
static void drop_records(struct file *f, uint64_t user)
{
	unsigned int kept = 0, n = f->n;

	for (unsigned int i = 0; i < n; i++) {
		struct record *r = &f->queue[(f->head + i) % QUEUE_LEN];

		if (r->counter != NO_COUNT && r->element == user)
			continue;
		f->queue[(f->head + kept++) % QUEUE_LEN] = *r;
	}
	/* No pointer stays behind for LeakSanitizer to find (see take()). */
	for (unsigned int i = kept; i < n; i++)
		memset(&f->queue[(f->head + i) % QUEUE_LEN], 0,
		       sizeof(f->queue[0]));
	f->n = kept;
}

void t_uv_untrack(uint32_t handle, uint32_t *comp, uint32_t *async)
{
	for (unsigned int i = 0; i < MAX_TRACKED; i++) {
		struct tracked *o = &objs[i];

		if (!o->used || o->handle != handle)
			continue;
		uint64_t user = o->user;

		*comp = o->comp;
		*async = o->async;
		memset(o, 0, sizeof(*o));
		for (int fd = FD_BASE; fd < FD_MAX; fd++)
			if (files[fd].open)
				drop_records(&files[fd], user);
		return;
	}
	*comp = *async = 0;
}

/*
 * The eventfd says "readable" while there is something to read. The fake
 * does not see close() (t_rdma_nl.c interposes it): a file the library
 * closed is still in the table until its number comes round again, and
 * writing to it fails harmlessly.
 */
static void signal_file(int fd)
{
	uint64_t one = 1;

	(void)!syscall(SYS_write, fd, &one, sizeof(one));
}

static void drain_file(int fd)
{
	uint64_t v;

	if (syscall(SYS_read, fd, &v, sizeof(v)) != sizeof(v))
		abort();
}

int t_uv_new_fd(enum t_uv_file_kind kind)
{
	int fd = eventfd(0, EFD_CLOEXEC), moved;

	if (fd < 0)
		return -1;
	/* Whatever the library closed, the next number is the same. */
	moved = fcntl(fd, F_DUPFD_CLOEXEC, next_fd);
	close(fd);
	if (moved < 0)
		return -1;
	if (moved >= FD_MAX) {
		close(moved);
		errno = EMFILE;
		return -1;
	}
	next_fd = moved + 1 >= FD_WRAP ? FD_BASE : moved + 1;
	memset(&files[moved], 0, sizeof(files[moved]));
	files[moved].open = true;
	files[moved].kind = kind;
	return moved;
}

static struct file *file_of(int fd)
{
	return fd >= FD_BASE && fd < FD_MAX && files[fd].open ? &files[fd] :
								NULL;
}

/* Queues @len bytes on @fd's file; false if it is not one or is full. */
static bool post(int fd, const void *rec, size_t len, enum counter counter,
		 uint64_t element)
{
	struct file *f;
	bool ok = false;

	t_uv_lock();
	f = file_of(fd);
	if (f && !f->closed && f->n < QUEUE_LEN) {
		struct record *r = &f->queue[(f->head + f->n) % QUEUE_LEN];

		memcpy(r->bytes, rec, len);
		r->len = len;
		r->counter = counter;
		r->element = element;
		if (!f->n++)
			signal_file(fd);
		ok = true;
	}
	t_uv_unlock();
	return ok;
}

bool t_uv_post_comp(int fd, const void *cq)
{
	struct ib_uverbs_comp_event_desc ev = { .cq_handle = (uintptr_t)cq };

	return post(fd, &ev, sizeof(ev), COMP_COUNT, ev.cq_handle);
}

/* Whether an async event of @type names an object (else a port). */
static bool names_object(uint32_t type)
{
	switch (type) {
	case IBV_EVENT_DEVICE_FATAL:
	case IBV_EVENT_PORT_ACTIVE:
	case IBV_EVENT_PORT_ERR:
	case IBV_EVENT_LID_CHANGE:
	case IBV_EVENT_PKEY_CHANGE:
	case IBV_EVENT_SM_CHANGE:
	case IBV_EVENT_CLIENT_REREGISTER:
	case IBV_EVENT_GID_CHANGE:
		return false;
	default:
		return true;
	}
}

bool t_uv_post_async(int fd, uint64_t element, uint32_t type)
{
	struct ib_uverbs_async_event_desc ev = {
		.element = element,
		.event_type = type,
	};

	return post(fd, &ev, sizeof(ev),
		    names_object(type) ? ASYNC_COUNT : NO_COUNT, element);
}

/* One record of @f, as the kernel's read() gives it; -1 and errno. */
static ssize_t take(struct file *f, int fd, void *buf, size_t len)
{
	struct record *r = &f->queue[f->head];
	size_t got = r->len;

	if (len < got) {
		errno = EINVAL;
		return -1;
	}
	memcpy(buf, r->bytes, got);
	if (r->counter != NO_COUNT) {
		struct tracked *o = tracked_by_user(r->element);

		if (o && r->counter == COMP_COUNT)
			o->comp++;
		else if (o)
			o->async++;
	}
	/*
	 * Forgotten once read, as the kernel frees it: the object pointers
	 * a record carries would otherwise keep a leaked object reachable
	 * in LeakSanitizer's eyes.
	 */
	memset(r, 0, sizeof(*r));
	f->head = (f->head + 1) % QUEUE_LEN;
	if (!--f->n && !f->closed)
		drain_file(fd);
	return (ssize_t)got;
}

static ssize_t read_file(int fd, void *buf, size_t len)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t ret;
	int flags;

	t_uv_lock();
	for (;;) {
		struct file *f = file_of(fd);

		if (!f) {
			ret = -1;
			errno = EBADF;
			break;
		}
		if (f->n) {
			ret = take(f, fd, buf, len);
			break;
		}
		if (f->closed) {
			ret = -1;
			errno = EIO;
			break;
		}
		flags = fcntl(fd, F_GETFL);
		if (flags < 0 || (flags & O_NONBLOCK)) {
			ret = -1;
			errno = flags < 0 ? EBADF : EAGAIN;
			break;
		}
		/* The eventfd turns readable on the next record or on EIO. */
		t_uv_unlock();
		if (poll(&p, 1, -1) < 0 && errno != EINTR)
			return -1;
		t_uv_lock();
	}
	t_uv_unlock();
	return ret;
}

ssize_t read(int fd, void *buf, size_t len)
{
	bool mine;

	if (fd < FD_BASE)
		return syscall(SYS_read, fd, buf, len);
	t_uv_lock();
	mine = file_of(fd);
	t_uv_unlock();
	if (!mine)
		return syscall(SYS_read, fd, buf, len);
	return read_file(fd, buf, len);
}

void t_uv_add_map(void *addr, size_t len, int prot)
{
	for (unsigned int i = 0; i < MAX_MAPS; i++)
		if (!maps[i].addr) {
			maps[i] = (struct map){ addr, len, prot };
			return;
		}
	abort(); /* more than any test maps */
}

void t_uv_drop_map(void *addr)
{
	for (unsigned int i = 0; i < MAX_MAPS; i++)
		if (maps[i].addr == addr)
			maps[i].addr = NULL;
}

unsigned int t_uv_live_maps(void)
{
	unsigned int n = 0;

	t_uv_lock();
	for (unsigned int i = 0; i < MAX_MAPS; i++)
		n += maps[i].addr != NULL;
	t_uv_unlock();
	return n;
}

void t_uv_disassociate(void)
{
	struct ib_uverbs_async_event_desc fatal = {
		.event_type = IBV_EVENT_DEVICE_FATAL,
	};

	t_uv_lock();
	gone = true;
	for (int fd = FD_BASE; fd < FD_MAX; fd++) {
		struct file *f = &files[fd];

		if (!f->open || f->closed)
			continue;
		if (f->kind == T_UV_ASYNC_FILE && f->n < QUEUE_LEN) {
			struct record *r =
				&f->queue[(f->head + f->n) % QUEUE_LEN];

			memcpy(r->bytes, &fatal, sizeof(fatal));
			r->len = sizeof(fatal);
			r->counter = NO_COUNT;
			f->n++;
		}
		/* Stays readable from now on: a record, then EIO. */
		signal_file(fd);
		f->closed = true;
	}
	/* What the driver shared is gone: the pages read zeroes. */
	for (unsigned int i = 0; i < MAX_MAPS; i++) {
		struct map *m = &maps[i];

		if (m->addr && syscall(SYS_mmap, m->addr, m->len, m->prot,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
				       -1, 0) == (long)MAP_FAILED)
			abort();
	}
	t_uv_unlock();
}
