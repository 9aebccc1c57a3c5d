package io.signalbox.model;

public record WeightedClusterSpec(String name, int weight) {}
