#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""Debian's python3-pyverbs driving whichever libibverbs is loaded.

    pyverbs_smoke.py DEVICE

A case of tests/vm/clients: the client table runs it once on Debian's
library and once on ours (LD_LIBRARY_PATH).  pyverbs is a Cython binding
that calls the verbs directly, so it reaches the library through another
door than the C clients: extension modules bound with RTLD_NOW, objects
freed by Python's garbage collector and by Context.close().

Opens DEVICE, queries it and port 1, allocates a PD, registers an MR,
creates a completion channel, a CQ on it and an RC QP, moves the QP to
INIT and reads the state back, then closes everything.  Each step prints
one line; the last line is "pyverbs: ok".  Any exception fails the case
with its traceback.
"""
import enum
import sys
import types

import pyverbs.device as d
from pyverbs.cq import CQ, CompChannel
from pyverbs.mr import MR
from pyverbs.pd import PD
from pyverbs.qp import QP, QPAttr, QPCap, QPInitAttr


def constants():
    """The verbs constants by their C names (e.IBV_QPT_RC).  pyverbs up
    to rdma-core 56 has them in pyverbs.enums; rdma-core 65's has one
    Python enum per C enum in pyverbs.libibverbs_enums instead
    (ibv_qp_type.IBV_QPT_RC), whose members are gathered here."""
    try:
        import pyverbs.enums as old
        return old
    except ImportError:
        import pyverbs.libibverbs_enums as new
    names = {}
    for kind in vars(new).values():
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            for member in kind:
                names[member.name] = int(member.value)
    return types.SimpleNamespace(**names)


e = constants()


def check(cond, what):
    if not cond:
        raise AssertionError(what)
    print("pyverbs:", what)


def open_device(name):
    names = [dev.name.decode() for dev in d.get_device_list()]
    check(name in names, f"{name} is listed ({', '.join(names)})")
    return d.Context(name=name)


def query(ctx):
    attr = ctx.query_device()
    check(attr.max_qp > 0 and attr.max_cqe > 0, "query_device")
    port = ctx.query_port(1)
    check(port.state == e.IBV_PORT_ACTIVE, "query_port: port 1 is active")
    return attr


def build_qp(ctx, pd, cq):
    cap = QPCap(max_send_wr=4, max_recv_wr=4, max_send_sge=1,
                max_recv_sge=1)
    init = QPInitAttr(qp_type=e.IBV_QPT_RC, scq=cq, rcq=cq, cap=cap)
    qp = QP(pd, init)
    check(qp.qp_num != 0, "create_qp (RC)")
    attr = QPAttr(qp_state=e.IBV_QPS_INIT, port_num=1)
    attr.qp_access_flags = e.IBV_ACCESS_REMOTE_WRITE
    qp.to_init(attr)
    got, _ = qp.query(e.IBV_QP_STATE | e.IBV_QP_PORT)
    check(got.qp_state == e.IBV_QPS_INIT and got.port_num == 1,
          "modify_qp to INIT, query_qp reads it back")
    return qp


def main():
    name = sys.argv[1] if len(sys.argv) > 1 else "rxe0"
    ctx = open_device(name)
    query(ctx)
    pd = PD(ctx)
    check(True, "alloc_pd")
    mr = MR(pd, 4096, e.IBV_ACCESS_LOCAL_WRITE | e.IBV_ACCESS_REMOTE_WRITE)
    check(mr.lkey != 0 and mr.length == 4096, "reg_mr")
    channel = CompChannel(ctx)
    cq = CQ(ctx, 16, None, channel, 0)
    check(True, "create_comp_channel, create_cq")
    qp = build_qp(ctx, pd, cq)
    for obj in (qp, mr, cq, channel, pd):
        obj.close()
    ctx.close()
    check(True, "destroyed in order, device closed")
    print("pyverbs: ok")


if __name__ == "__main__":
    main()
