package io.moraine.sidecars.rowsum;

/**
 * Where an order's packed regions lie, relative to the order's first byte: entry {@code i} of a region starting at
 * {@code s} with width {@code w} is in the bytes from {@code s + i*w/8}. {@code offsetWidth} and {@code offsetsStart}
 * are 0 for a permuted order.
 */
public record OrderLayout(byte tag, long rowCount, long distinct, int positionWidth, int offsetWidth, long offsetsStart, long positionsStart, long length) {}
