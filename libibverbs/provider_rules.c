// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which provider plug-ins a device needs, without loading any to ask.
 *
 * The kernel already says what drives a device: the netlink device dump
 * carries the uverbs driver id, and sysfs the device's modalias (PCI
 * vendor and device ids, or a bus's own alias). The table below states,
 * for every provider a distribution ships, the driver ids, the PCI
 * vendors and the globs its match table claims, so that drivers.c can
 * load only the plug-ins that may claim the devices present. The rules
 * may name more providers than match, never fewer among those they know;
 * where no rule knows a device, the answer is the empty set and the
 * caller loads everything, as before. tests/provider_rules_test.c holds
 * the table to the match tables of the real plug-ins.
 */
#include <assert.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "kernel-headers/driver_ids.h"

#include "provider_rules.h"
#include "sysfs.h"
#include "util.h"

/* PCI vendor ids, as the providers' tables name them. */
#define VENDOR_BROADCOM 0x14e4
#define VENDOR_CHELSIO 0x1425
#define VENDOR_AMAZON 0x1d0f
#define VENDOR_ALIBABA 0x1ded
#define VENDOR_INTEL 0x8086
#define VENDOR_HUAWEI 0x19e5
#define VENDOR_PATHSCALE 0x1fc1
#define VENDOR_QLOGIC 0x1077
#define VENDOR_MELLANOX 0x15b3
#define VENDOR_TOPSPIN 0x1867
#define VENDOR_EMULEX 0x10df
#define VENDOR_VMWARE 0x15ad

/* What one provider's match table claims, by kind; zeroes end a list. */
struct rule {
	const char *name; /* its name in a driver config file */
	uint32_t driver_ids[2];
	uint16_t vendors[2];
	/* A modalias glob, or a name glob on "rdma_device:N<ibdev name>". */
	const char *glob;
};

#define RULE(_name, ...)                     \
	{                                    \
		.name = (_name), __VA_ARGS__ \
	}
#define IDS(...) .driver_ids = { __VA_ARGS__ }
#define VENDORS(...) .vendors = { __VA_ARGS__ }

/*
 * Read from the match tables (verbs_match_ent) of rdma-core's providers,
 * 44.0 to 65.0, file by file as noted; the PCI device ids are left out,
 * as a vendor's devices all lead to its providers. In config-name order.
 */
static const struct rule rules[] = {
	/* providers/bnxt_re/main.c, cna_table */
	RULE("bnxt_re", IDS(RDMA_DRIVER_BNXT_RE), VENDORS(VENDOR_BROADCOM)),
	/* providers/cxgb4/dev.c, hca_table */
	RULE("cxgb4", IDS(RDMA_DRIVER_CXGB4), VENDORS(VENDOR_CHELSIO)),
	/* providers/efa/efa.c, efa_table */
	RULE("efa", IDS(RDMA_DRIVER_EFA), VENDORS(VENDOR_AMAZON)),
	/* providers/erdma/erdma.c, match_table */
	RULE("erdma", IDS(RDMA_DRIVER_ERDMA), VENDORS(VENDOR_ALIBABA)),
	/* providers/hfi1verbs/hfiverbs.c, hca_table */
	RULE("hfi1verbs", IDS(RDMA_DRIVER_HFI1), VENDORS(VENDOR_INTEL)),
	/* providers/hns/hns_roce_u.c, hca_table: PCI ids only */
	RULE("hns", VENDORS(VENDOR_HUAWEI)),
	/* providers/ionic/ionic.c (65.0 only), cna_table: the driver id */
	RULE("ionic", IDS(KABI_RDMA_DRIVER_IONIC)),
	/* providers/ipathverbs/ipathverbs.c, hca_table: QIB and InfiniPath */
	RULE("ipathverbs", IDS(RDMA_DRIVER_QIB),
	     VENDORS(VENDOR_PATHSCALE, VENDOR_QLOGIC)),
	/* providers/irdma/umain.c, hca_table */
	RULE("irdma", IDS(RDMA_DRIVER_IRDMA), VENDORS(VENDOR_INTEL)),
	/* providers/mana/mana.c, hca_table: the driver id */
	RULE("mana", IDS(KABI_RDMA_DRIVER_MANA)),
	/* providers/mlx4/mlx4.c, hca_table, with Azure's Network Direct */
	RULE("mlx4", IDS(RDMA_DRIVER_MLX4), VENDORS(VENDOR_MELLANOX),
	     .glob = "vmbus:3daf2e8ca732094bab99bd1f1c86b501"),
	/* providers/mlx5/mlx5.c, mlx5_hca_table */
	RULE("mlx5", IDS(RDMA_DRIVER_MLX5), VENDORS(VENDOR_MELLANOX)),
	/* providers/mthca/mthca.c, hca_table: PCI ids only */
	RULE("mthca", VENDORS(VENDOR_MELLANOX, VENDOR_TOPSPIN)),
	/* providers/ocrdma/ocrdma_main.c, ucna_table */
	RULE("ocrdma", IDS(RDMA_DRIVER_OCRDMA), VENDORS(VENDOR_EMULEX)),
	/* providers/qedr/qelr_main.c, hca_table */
	RULE("qedr", IDS(RDMA_DRIVER_QEDR), VENDORS(VENDOR_QLOGIC)),
	/* providers/rxe/rxe.c, hca_table: the driver id and a name prefix */
	RULE("rxe", IDS(RDMA_DRIVER_RXE), .glob = "rdma_device:*Nrxe*"),
	/* providers/siw/siw.c, rnic_table: the driver id */
	RULE("siw", IDS(RDMA_DRIVER_SIW)),
	/* providers/vmw_pvrdma/pvrdma_main.c, hca_table */
	RULE("vmw_pvrdma", IDS(RDMA_DRIVER_VMW_PVRDMA), VENDORS(VENDOR_VMWARE)),
};

static_assert(ARRAY_SIZE(rules) <= sizeof(provider_set) * 8,
	      "a provider set holds a bit per rule");

static bool has_id(const struct rule *r, uint32_t id)
{
	for (size_t i = 0; i < ARRAY_SIZE(r->driver_ids); i++)
		if (r->driver_ids[i] && r->driver_ids[i] == id)
			return true;
	return false;
}

static bool has_vendor(const struct rule *r, unsigned long vendor)
{
	for (size_t i = 0; i < ARRAY_SIZE(r->vendors); i++)
		if (r->vendors[i] && r->vendors[i] == vendor)
			return true;
	return false;
}

/* The providers that claim driver id @id. */
static provider_set by_driver_id(uint32_t id)
{
	provider_set set = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (has_id(&rules[i], id))
			set |= 1u << i;
	return set;
}

/* The providers whose glob matches @s. */
static provider_set by_glob(const char *s)
{
	provider_set set = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (rules[i].glob && !fnmatch(rules[i].glob, s, 0))
			set |= 1u << i;
	return set;
}

/* A name glob sees the device as "rdma_device:N<name>", as match tables do. */
static provider_set by_name(const struct verbs_sysfs_dev *sd)
{
	char s[IBV_SYSFS_NAME_MAX + 16];

	if (str_join(s, sizeof(s), "rdma_device:N", sd->ibdev_name, ""))
		return 0;
	return by_glob(s);
}

/* A PCI modalias starts "pci:v" and eight hex digits of vendor id. */
static provider_set by_modalias(const char *modalias)
{
	provider_set set = 0;
	unsigned long vendor;
	char hex[9] = "";
	char *end;

	if (strncmp(modalias, "pci:v", 5))
		return by_glob(modalias);
	memcpy(hex, modalias + 5, strnlen(modalias + 5, 8));
	vendor = strtoul(hex, &end, 16);
	if (end != hex + 8)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (has_vendor(&rules[i], vendor))
			set |= 1u << i;
	return set;
}

/*
 * Read once per device, on the first rule or provider that needs it: a
 * device with a driver id some provider claims never costs the read.
 */
bool sysfs_dev_modalias(struct verbs_sysfs_dev *sd)
{
	if (sd->flags & VSYSFS_READ_MODALIAS)
		return sd->modalias[0] != '\0';
	sd->flags |= VSYSFS_READ_MODALIAS;
	if (ibv_read_ibdev_sysfs_file(sd->modalias, sizeof(sd->modalias), sd,
				      "device/modalias") <= 0)
		sd->modalias[0] = '\0';
	return sd->modalias[0] != '\0';
}

/* The providers a modalias may lead to: by PCI vendor, or a bus's glob. */
static provider_set by_modalias_at_all(void)
{
	provider_set set = 0;

	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (rules[i].vendors[0] ||
		    (rules[i].glob &&
		     strncmp(rules[i].glob, "rdma_device:", 12)))
			set |= 1u << i;
	return set;
}

/*
 * A driver id that some provider claims decides, as it does when the
 * providers are matched (match_driver() tries its claimants first); the
 * name globs are added for a claimant that turns the device down. A
 * device without one (old kernels, sysfs discovery, or an id no rule
 * knows) is known by its modalias or its name, or not at all. The
 * modalias is read only when a provider of @among may follow it.
 */
provider_set rules_providers_among(struct verbs_sysfs_dev *sd,
				   provider_set among)
{
	provider_set set = 0;

	if (sd->driver_id != RDMA_DRIVER_UNKNOWN)
		set = by_driver_id(sd->driver_id);
	if (set)
		return (set | by_name(sd)) & among;
	set = by_name(sd);
	if ((among & by_modalias_at_all()) && sysfs_dev_modalias(sd))
		set |= by_modalias(sd->modalias);
	return set & among;
}

provider_set rules_providers_of(struct verbs_sysfs_dev *sd)
{
	return rules_providers_among(sd, ~(provider_set)0);
}

/*
 * A path prefix names its file, /dir/lib<name>; a bare name is looked up
 * as it is (drivers.c loads only names starting with '/' by path).
 */
provider_set rules_provider_named(const char *name)
{
	const char *base = name;

	if (name[0] == '/') {
		base = strrchr(name, '/') + 1;
		if (strncmp(base, "lib", 3))
			return 0;
		base += 3;
	}
	for (size_t i = 0; i < ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].name, base))
			return 1u << i;
	return 0;
}

const char *rules_provider_name(unsigned int bit)
{
	return bit < ARRAY_SIZE(rules) ? rules[bit].name : NULL;
}
