#pragma once
// The Node pane's Last run section: the node's median time, runs and bytes in the last run, and the
// node whose kernel does its work when the engine folded it (a BatchNorm into its convolution).

#include "views/inspect/info_tree_model.h"

namespace irlens::views {

struct RunSnapshot;

/// Adds the section for graph node `node` under `root` when `run` ran it.
void addRunSection(InfoRow& root, const RunSnapshot* run, int node);

} // namespace irlens::views
