/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Old names for the kernel's SA path record; superseded by ib_user_sa.h. */
#ifndef INFINIBAND_SA_KERN_ABI_H
#define INFINIBAND_SA_KERN_ABI_H

#warning "<infiniband/sa-kern-abi.h> is deprecated; include <rdma/ib_user_sa.h>"

#include <rdma/ib_user_sa.h>

#define ib_kern_path_rec ib_user_path_rec
#define ibv_kern_path_rec ib_user_path_rec

#endif /* INFINIBAND_SA_KERN_ABI_H */
