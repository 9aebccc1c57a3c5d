/**
 * The embedded PostgreSQL server ({@code store.url: embedded}): starting it on the data directory,
 * recovering from a postmaster a killed JVM left running, and running it as root.
 */
package io.signalbox.store.embedded;
