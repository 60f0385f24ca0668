// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Conversions between enum ibv_rate, whose values are the wire encoding
 * and follow no order, and plain numbers: a multiple of the 2.5 Gbit/s
 * base rate, or Mbit/s. A number that names no rate converts to
 * IBV_RATE_MAX (0); a rate with no number converts to -1.
 */
#include <stddef.h>

#include <infiniband/verbs.h>

#include "export.h"
#include "util.h"

struct rate_row {
	enum ibv_rate rate;
	int mult; /* 0: this rate has no multiple of 2.5 Gbit/s */
	int mbps; /* the lane's data rate, so FDR/EDR rates are not round */
};

/*
 * The 14/56/112/168 and 25/100/200/300 Gbit/s rates (FDR, EDR) have no
 * multiple here, as in rdma-core, though 28 and 50 Gbit/s do.
 */
static const struct rate_row rates[] = {
	{ .rate = IBV_RATE_2_5_GBPS, .mult = 1, .mbps = 2500 },
	{ .rate = IBV_RATE_5_GBPS, .mult = 2, .mbps = 5000 },
	{ .rate = IBV_RATE_10_GBPS, .mult = 4, .mbps = 10000 },
	{ .rate = IBV_RATE_20_GBPS, .mult = 8, .mbps = 20000 },
	{ .rate = IBV_RATE_30_GBPS, .mult = 12, .mbps = 30000 },
	{ .rate = IBV_RATE_40_GBPS, .mult = 16, .mbps = 40000 },
	{ .rate = IBV_RATE_60_GBPS, .mult = 24, .mbps = 60000 },
	{ .rate = IBV_RATE_80_GBPS, .mult = 32, .mbps = 80000 },
	{ .rate = IBV_RATE_120_GBPS, .mult = 48, .mbps = 120000 },
	{ .rate = IBV_RATE_14_GBPS, .mult = 0, .mbps = 14062 },
	{ .rate = IBV_RATE_56_GBPS, .mult = 0, .mbps = 56250 },
	{ .rate = IBV_RATE_112_GBPS, .mult = 0, .mbps = 112500 },
	{ .rate = IBV_RATE_168_GBPS, .mult = 0, .mbps = 168750 },
	{ .rate = IBV_RATE_25_GBPS, .mult = 0, .mbps = 25781 },
	{ .rate = IBV_RATE_100_GBPS, .mult = 0, .mbps = 103125 },
	{ .rate = IBV_RATE_200_GBPS, .mult = 0, .mbps = 206250 },
	{ .rate = IBV_RATE_300_GBPS, .mult = 0, .mbps = 309375 },
	{ .rate = IBV_RATE_28_GBPS, .mult = 11, .mbps = 28125 },
	{ .rate = IBV_RATE_50_GBPS, .mult = 20, .mbps = 53125 },
	{ .rate = IBV_RATE_400_GBPS, .mult = 160, .mbps = 425000 },
	{ .rate = IBV_RATE_600_GBPS, .mult = 240, .mbps = 637500 },
	{ .rate = IBV_RATE_800_GBPS, .mult = 320, .mbps = 850000 },
	{ .rate = IBV_RATE_1200_GBPS, .mult = 480, .mbps = 1275000 },
};

static const struct rate_row *by_rate(enum ibv_rate rate)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rates); i++)
		if (rates[i].rate == rate)
			return &rates[i];
	return NULL;
}

/**
 * ibv_rate_to_mult - a rate as a multiple of 2.5 Gbit/s
 * @rate: the rate to convert
 *
 * Return: the multiple, or -1 when @rate has none.
 */
IBV_EXPORT int ibv_rate_to_mult(enum ibv_rate rate)
{
	const struct rate_row *row = by_rate(rate);

	return row && row->mult ? row->mult : -1;
}

/**
 * mult_to_ibv_rate - the rate that is @mult times 2.5 Gbit/s
 * @mult: the multiple
 *
 * Return: the rate, or IBV_RATE_MAX when no rate is exactly that.
 */
IBV_EXPORT enum ibv_rate mult_to_ibv_rate(int mult)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rates); i++)
		if (rates[i].mult && rates[i].mult == mult)
			return rates[i].rate;
	return IBV_RATE_MAX;
}

/**
 * ibv_rate_to_mbps - a rate in Mbit/s
 * @rate: the rate to convert
 *
 * Return: the data rate in Mbit/s, or -1 for an unknown @rate.
 */
IBV_EXPORT int ibv_rate_to_mbps(enum ibv_rate rate)
{
	const struct rate_row *row = by_rate(rate);

	return row ? row->mbps : -1;
}

/**
 * mbps_to_ibv_rate - the rate of exactly @mbps Mbit/s
 * @mbps: the data rate
 *
 * Return: the rate, or IBV_RATE_MAX when no rate is exactly that.
 */
IBV_EXPORT enum ibv_rate mbps_to_ibv_rate(int mbps)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rates); i++)
		if (rates[i].mbps == mbps)
			return rates[i].rate;
	return IBV_RATE_MAX;
}
