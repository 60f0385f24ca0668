// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <infiniband/releases.h>

#include "t_util.h"

bool t_reference(void)
{
	const char *v = getenv("IBV_TEST_REFERENCE");

	return v && *v && strcmp(v, "0");
}

bool t_library_under_test(const void *sym)
{
	Dl_info info;

	if (!dladdr(sym, &info) || !info.dli_fname)
		return false;
	return !!strstr(info.dli_fname, "/reference/") == t_reference();
}

const char *t_build_dir(void)
{
	const char *b = getenv("IBV_TEST_BUILD_DIR");

	return b ? b : ".";
}

/*
 * The file name ending of the plugins the core under test loads: the
 * reference's provider ABI (its releases/table row is the oldest) when
 * the test runs on Debian's library, else the newest.
 */
const char *t_plugin_suffix(void)
{
#define T_PABI_ROW(rel, deb, suite, abi, pabi, kernel, qp_ex, dmabuf) pabi,
	static const int pabis[] = { IBV_FOR_EACH_RELEASE(T_PABI_ROW) };
#undef T_PABI_ROW
	static char suffix[32];

	snprintf(suffix, sizeof(suffix), "-rdmav%d.so",
		 t_reference() ? pabis[0] : IBVERBS_PRIVATE_ABI);
	return suffix;
}

const char *t_testprov(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s/lib/libtestprov", t_build_dir());
	return path;
}

static bool t_mount(const char *src, const char *dst, const char *type,
		    unsigned long flags, const char *data)
{
	if (mount(src, dst, type, flags, data) == 0)
		return true;
	fprintf(stderr, "skip: cannot mount %s on %s: %s\n", type ? type : src,
		dst, strerror(errno));
	return false;
}

static void t_node(const char *path, mode_t mode, unsigned int maj,
		   unsigned int min)
{
	if (mknod(path, mode | 0666, makedev(maj, min)) && errno != EEXIST) {
		fprintf(stderr, "mknod %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

/* Set in a scenario child once it runs in its private namespace. */
static bool in_fake_kernel;

bool t_ns_enter(void)
{
	char upper[] = "/dev/.ibvt-etc", opts[512];
	int err;

	if (geteuid() != 0) {
		fprintf(stderr,
			"skip: needs root for a private mount namespace\n");
		return false;
	}
	if (unshare(CLONE_NEWNS)) {
		fprintf(stderr, "skip: unshare(CLONE_NEWNS): %s\n",
			strerror(errno));
		return false;
	}
	if (!t_mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) ||
	    !t_mount("tmpfs", "/dev", "tmpfs", 0, "mode=755"))
		return false;
	t_node("/dev/null", S_IFCHR, 1, 3);
	t_node("/dev/zero", S_IFCHR, 1, 5);
	t_node("/dev/full", S_IFCHR, 1, 7);
	t_node("/dev/urandom", S_IFCHR, 1, 9);
	mkdir("/dev/infiniband", 0755);
	/*
	 * /etc gets a throw-away upper layer for libibverbs.d. It lives in
	 * the private /dev, like the fake sysfs trees (t_sysfs_empty()), so
	 * nothing a scenario writes outlives its namespace on the host.
	 */
	mkdir(upper, 0755);
	in_fake_kernel = true;
	mkdir(strcat(strcpy(opts, upper), "/u"), 0755);
	mkdir(strcat(strcpy(opts, upper), "/w"), 0755);
	snprintf(opts, sizeof(opts), "lowerdir=/etc,upperdir=%s/u,workdir=%s/w",
		 upper, upper);
	if (!t_mount("overlay", "/etc", "overlay", 0, opts))
		return false;
	mkdir("/etc/libibverbs.d", 0755);
	/*
	 * On a host with RDMA devices the library would take the netlink
	 * path and never read the fake tree.
	 */
	err = t_hide_rdma_netlink();
	if (err) {
		fprintf(stderr, "skip: cannot hide RDMA netlink: %s\n",
			strerror(err));
		return false;
	}
	return true;
}

void t_mknod(const char *name, unsigned int maj, unsigned int min)
{
	char path[256];

	snprintf(path, sizeof(path), "/dev/infiniband/%s", name);
	t_node(path, S_IFCHR, maj, min);
}

void t_rmnod(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "/dev/infiniband/%s", name);
	unlink(path);
}

void t_write(const char *path, const char *content)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, content, strlen(content)) < 0) {
		fprintf(stderr, "write %s: %s\n", path, strerror(errno));
		exit(1);
	}
	close(fd);
}

static void t_mkdirs(const char *path)
{
	char tmp[4096], *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			mkdir(tmp, 0755);
			*p = '/';
		}
	mkdir(tmp, 0755);
}

static void t_writef(const char *dir, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void t_writef(const char *dir, const char *file, const char *fmt, ...)
{
	char path[4096], buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	t_write(path, buf);
}

/*
 * Inside the fake kernel, scratch directories go to its private /dev, so
 * that nothing outlives the scenario's namespace on the host.
 */
char *t_mkdtemp(const char *name)
{
	char *dir;

	if (asprintf(&dir, "%s/%s-XXXXXX", in_fake_kernel ? "/dev" : "/tmp",
		     name) < 0 ||
	    !mkdtemp(dir))
		exit(1);
	return dir;
}

char *t_sysfs_empty(void)
{
	return t_mkdtemp("ibvt-sysfs");
}

char *t_fake_kernel(bool with_provider)
{
	char *root;

	if (!t_ns_enter())
		return NULL;
	root = t_sysfs_new();
	setenv("SYSFS_PATH", root, 1);
	if (with_provider)
		setenv("RDMAV_DRIVERS", t_testprov(), 1);
	return root;
}

char *t_sysfs_new(void)
{
	char *root = t_sysfs_empty();
	char path[4096];

	snprintf(path, sizeof(path), "%s/class/infiniband_verbs", root);
	t_mkdirs(path);
	t_writef(path, "abi_version", "6\n");
	snprintf(path, sizeof(path), "%s/class/infiniband", root);
	t_mkdirs(path);
	return root;
}

void t_sysfs_add(const char *root, const struct t_dev *d)
{
	char ib[4096], uv[4096], name[32];

	snprintf(name, sizeof(name), "uverbs%d", d->uverbs);
	snprintf(ib, sizeof(ib), "%s/class/infiniband/%s/device", root,
		 d->ibdev);
	t_mkdirs(ib);
	if (d->modalias)
		t_writef(ib, "modalias", "%s\n", d->modalias);
	snprintf(ib, sizeof(ib), "%s/class/infiniband/%s", root, d->ibdev);
	t_writef(ib, "node_type", "%d: CA\n", d->node_type ? d->node_type : 1);
	if (d->guid)
		t_writef(ib, "node_guid", "%s\n", d->guid);
	snprintf(uv, sizeof(uv), "%s/class/infiniband_verbs/%s", root, name);
	t_mkdirs(uv);
	t_writef(uv, "ibdev", "%s\n", d->ibdev);
	t_writef(uv, "dev", "%u:%u\n", d->maj, d->min);
	if (d->abi)
		t_writef(uv, "abi_version", "%d\n", d->abi);
	if (!d->no_node)
		t_mknod(name, d->maj, d->min);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(p);
}

void t_rm_rf(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

void t_sysfs_del(const char *root, const struct t_dev *d)
{
	char path[4096], name[32];

	snprintf(name, sizeof(name), "uverbs%d", d->uverbs);
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs/%s", root,
		 name);
	t_rm_rf(path);
	snprintf(path, sizeof(path), "%s/class/infiniband/%s", root, d->ibdev);
	t_rm_rf(path);
	t_rmnod(name);
}

int t_run(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	/* exit(), not _exit(): LeakSanitizer checks the scenario at exit. */
	if (pid == 0)
		exit(fn(arg));
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

char *t_capture_stderr(void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/ibvt-err-XXXXXX", *buf;
	int fd = mkstemp(path), saved;
	off_t len;

	if (fd < 0)
		exit(1);
	unlink(path);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	len = lseek(fd, 0, SEEK_END);
	buf = calloc(1, len + 1);
	if (pread(fd, buf, len, 0) < 0)
		buf[0] = '\0';
	close(fd);
	return buf;
}

bool t_drop_capability(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &hdr, data))
		return false;
	data[CAP_TO_INDEX(cap)].effective &= ~CAP_TO_MASK(cap);
	return !syscall(SYS_capset, &hdr, data);
}
