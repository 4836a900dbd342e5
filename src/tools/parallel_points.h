// The points of a sweep rendered side by side: each in a child process of its own (so no state
// of one render can reach another, and the results are those of a serial run), up to a number
// of processes at a time.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

namespace tessera::tools {

// The processors this process may run on (at least 1).
unsigned localProcessors();

// Runs work(i) for every i in `todo`, at most `jobs` at a time: each in a forked child, or in
// this process when jobs is 1. work keeps its result itself (the sweep's cache) and reports a
// failure by throwing tessera::Error. onDone(i) runs here after each success, in the order
// they finish. After a failure no new point starts; the running ones finish (their results are
// kept) and the first failure's message is thrown as tessera::Error.
void runPoints(const std::vector<size_t>& todo, unsigned jobs,
               const std::function<void(size_t)>& work, const std::function<void(size_t)>& onDone);

}  // namespace tessera::tools
