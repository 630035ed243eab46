"""The counters of the 17-clue search's pair kernels, in one place: the index of each in the
``stats`` array the kernels increment (``STAT_*``) and its name (``STAT_NAMES``, the keys of
:attr:`.search.PassSlice.stats` and of :attr:`.grid.GridSearch.stats`).

* ``found``: 17s found (the uniqueness check passed);
* ``learned``: failed uniqueness checks of the band-3 step, each a UA learned;
* ``checks``: uniqueness checks of the band-3 step;
* ``survivors``: candidates whose band-3 clues could still be placed once the sockets and the
  band-3 UAs they miss were counted (those that reach the hitting-set search of band 3);
* ``band3_sets``: band-3 clue sets that search gave (each one a check, or one met before);
* ``socket_searches``: sockets refilled (once per pair and socket);
* ``candidates``: XY candidates still alive at the end of a pair's band-3 step;
* ``xy_checks``: the XY step's validity checks of rows 1-6;
* ``xy_learned``: those that failed, each a UA of the pair learned.
"""
STAT_NAMES = ("found", "learned", "checks", "survivors", "band3_sets", "socket_searches", "candidates", "xy_checks",
              "xy_learned")
(STAT_FOUND, STAT_LEARNED, STAT_CHECKS, STAT_SURVIVORS, STAT_ZSETS, STAT_SOCKETS, STAT_CANDIDATES, STAT_XY_CHECKS,
 STAT_XY_LEARNED) = range(len(STAT_NAMES))
N_STATS = len(STAT_NAMES)
