// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * provider_drive_test: the personas of Debian's providers, 17 in 44.0
 * and 56.1 and 18 in 65.0, a file each under personas/, in the order of
 * their library names. Each device is matched the way the kernel
 * presents it: PCI ids in the modalias (sysfs) and the driver id
 * (netlink), with the uverbs ABI version its kernel driver reports.
 */
#include "t_drive.h"

extern const struct t_persona t_persona_bnxt_re;
extern const struct t_persona t_persona_cxgb4;
extern const struct t_persona t_persona_efa;
extern const struct t_persona t_persona_erdma;
extern const struct t_persona t_persona_hfi1verbs;
extern const struct t_persona t_persona_hns;
extern const struct t_persona t_persona_ionic;
extern const struct t_persona t_persona_ipathverbs;
extern const struct t_persona t_persona_irdma;
extern const struct t_persona t_persona_mana;
extern const struct t_persona t_persona_mlx4;
extern const struct t_persona t_persona_mlx5;
extern const struct t_persona t_persona_mthca;
extern const struct t_persona t_persona_ocrdma;
extern const struct t_persona t_persona_qedr;
extern const struct t_persona t_persona_rxe;
extern const struct t_persona t_persona_siw;
extern const struct t_persona t_persona_vmw_pvrdma;

const struct t_persona *const t_personas[] = {
	&t_persona_bnxt_re, &t_persona_cxgb4,	   &t_persona_efa,
	&t_persona_erdma,   &t_persona_hfi1verbs,  &t_persona_hns,
	&t_persona_ionic,   &t_persona_ipathverbs, &t_persona_irdma,
	&t_persona_mana,    &t_persona_mlx4,	   &t_persona_mlx5,
	&t_persona_mthca,   &t_persona_ocrdma,	   &t_persona_qedr,
	&t_persona_rxe,	    &t_persona_siw,	   &t_persona_vmw_pvrdma,
};
const unsigned int t_npersonas = sizeof(t_personas) / sizeof(t_personas[0]);
_Static_assert(sizeof(t_personas) / sizeof(t_personas[0]) <= T_MAX_PERSONAS,
	       "provider_drive_test.c keeps a flag per persona");
