/**
 * The store on PostgreSQL: {@link io.signalbox.store.postgres.PostgresSnapshotStore} over one
 * class per group of tables, one connection pool, Flyway migrations and jOOQ. Open it through
 * {@link io.signalbox.store.Stores#open}; tests and benchmarks open it directly.
 */
package io.signalbox.store.postgres;
