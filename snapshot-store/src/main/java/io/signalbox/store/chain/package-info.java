/**
 * The delta-chain rules both stores follow: which stored form an append takes, when a full copy
 * is due, what retention keeps, and how a delta chain is rebuilt. Public only because the two
 * stores live in their own packages and must store, count and rebuild chains alike; nothing
 * outside {@code snapshot-store} uses it.
 */
package io.signalbox.store.chain;
