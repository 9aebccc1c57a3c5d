/**
 * The store in the heap ({@code store.url: memory}): every role with PostgreSQL's semantics, held
 * to them by the same contract tests. Nothing survives a restart.
 */
package io.signalbox.store.memory;
