// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which release's layouts a provider was built with.
 *
 * Releases of rdma-core that keep one provider ABI number do not keep
 * every layout behind it: between two of them struct ibv_qp_ex grew, and
 * with it the offset of struct verbs_qp's comp_mask and xrcd, and
 * ibv_cmd_reg_dmabuf_mr() gained an argument. rdma-core never meets the
 * difference, since its core and providers ship together; a core that
 * serves the providers of several releases must know, per provider,
 * which of them it is talking to. releases/table lists the layouts per
 * release (<infiniband/releases.h>); here a provider object is matched to
 * a release when it registers.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/releases.h>

#include "config.h"
#include "driver.h"
#include "log.h"
#include "provider_release.h"
#include "util.h"

#define ROW(rel, deb, suite, abi, pabi_, kernel, qp_ex, dmabuf) \
	{ .qp_ex_size = qp_ex,                                  \
	  .dmabuf_args = dmabuf,                                \
	  .pabi = pabi_,                                        \
	  .release = rel },
static const struct provider_abi releases[] = { IBV_FOR_EACH_RELEASE(ROW) };
#undef ROW

struct provider_abi provider_abi_builtin(void)
{
	return (struct provider_abi){
		.qp_ex_size = sizeof(struct ibv_qp_ex),
		.dmabuf_args = VERBS_DMABUF_MR_ARGS,
		.pabi = IBVERBS_PRIVATE_ABI,
	};
}

/* The release whose name ends @name after a '.' (libx.so.1.25.<rel>). */
static const struct provider_abi *release_suffix(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < ARRAY_SIZE(releases); i++) {
		size_t rl = strlen(releases[i].release);

		if (len > rl + 4 && name[len - rl - 1] == '.' &&
		    !strcmp(name + len - rl, releases[i].release) &&
		    strstr(name, ".so."))
			return &releases[i];
	}
	return NULL;
}

static const struct provider_abi *release_of_target(const char *path)
{
	char real[PATH_MAX];
	const char *base;

	if (!realpath(path, real))
		return NULL;
	base = strrchr(real, '/');
	return release_suffix(base ? base + 1 : real);
}

/*
 * A plain plugin (librxe-rdmav<N>.so) does not name its release, but the
 * package that installed it installed its neighbours too, and those that
 * come with a library of their own (libmlx5-rdmav<N>.so, a link to
 * libmlx5.so.1.25.<release>) do.
 */
static const struct provider_abi *release_of_dir(const char *path)
{
	const struct provider_abi *found = NULL;
	char dir[PATH_MAX], entry[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *suffix;
	struct dirent *de;
	DIR *d;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return NULL;
	/* Its neighbours of the same provider ABI: -rdmav<N>.so as its own. */
	suffix = strstr(slash, "-rdmav");
	if (!suffix)
		return NULL;
	memcpy(dir, path, slash - path);
	dir[slash - path] = '\0';
	d = opendir(dir);
	if (!d)
		return NULL;
	while (!found && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= strlen(suffix) ||
		    strcmp(de->d_name + len - strlen(suffix), suffix) ||
		    (size_t)snprintf(entry, sizeof(entry), "%s/%s", dir,
				     de->d_name) >= sizeof(entry))
			continue;
		found = release_of_target(entry);
	}
	closedir(d);
	return found;
}

struct provider_abi provider_abi_of_file(const char *path)
{
	const struct provider_abi *r = release_of_target(path);

	if (!r)
		r = release_of_dir(path);
	return r ? *r : provider_abi_builtin();
}

/* Our note: name "ibverbs-ng", type 1, the layouts driver.h compiled. */
struct note_search {
	uintptr_t addr;
	bool in_object;
	bool found;
	struct provider_abi abi;
};

static void read_notes(const char *p, const char *end, struct note_search *s)
{
	static const char name[] = VERBS_LAYOUT_NOTE_NAME;

	while (p + 12 <= end) {
		uint32_t namesz, descsz, type;
		const char *desc;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		desc = p + 12 + ((namesz + 3) & ~3u);
		if (desc + descsz > end)
			return;
		if (type == VERBS_LAYOUT_NOTE_TYPE && namesz == sizeof(name) &&
		    !memcmp(p + 12, name, sizeof(name)) &&
		    descsz >= sizeof(struct verbs_layout_note_desc)) {
			struct verbs_layout_note_desc n;

			memcpy(&n, desc, sizeof(n));
			s->abi.qp_ex_size = n.qp_ex_size;
			s->abi.dmabuf_args = n.dmabuf_args;
			s->abi.release = NULL;
			s->found = true;
			return;
		}
		p = desc + ((descsz + 3) & ~3u);
	}
}

static int find_note(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct note_search *s = arg;
	int i;

	s->in_object = false;
	for (i = 0; i < info->dlpi_phnum && !s->in_object; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		s->in_object = ph->p_type == PT_LOAD && s->addr >= start &&
			       s->addr - start < ph->p_memsz;
	}
	if (!s->in_object)
		return 0;
	for (i = 0; i < info->dlpi_phnum && !s->found; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);

		if (ph->p_type == PT_NOTE)
			read_notes(p, p + ph->p_memsz, s);
	}
	return 1;
}

struct provider_abi provider_abi_of(const void *addr)
{
	struct note_search s = { .addr = (uintptr_t)addr };
	Dl_info info;

	dl_iterate_phdr(find_note, &s);
	if (s.found)
		return s.abi;
	if (!dladdr(addr, &info) || !info.dli_fname || !info.dli_fname[0])
		return provider_abi_builtin();
	return provider_abi_of_file(info.dli_fname);
}
