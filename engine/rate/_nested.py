"""The nested chain levels (Sudoku Explainer's "Dynamic Forcing Chains (+ ...)", 9.5 and up):
dynamic chains whose runs, when their queues run dry, ask chaining rules on the reduced grid
(``getAdvancedPotentials``), besides the four basic rules of level 1:

- level 2: forcing chains and cycles (X, Y, XY);
- level 3: those, then multiple (static) forcing chains;
- level 4: dynamic forcing chains;
- level 5: those, then dynamic forcing chains of level 2 (two levels of nesting).

The compiled functions nest without recursion: runs of level 2 (``run2``) nested in the
producers of level 5 are a different compiled function from the top level's (``run5``).
``nctx``: the scratch the nested rules share (``new_nctx``).
"""
from .._jit import kernel
from ._advanced import adv_basic
from ._multi import make_multi, make_multi_collect, new_workspace
from ._nctx import new_nctx
from ._loop import run1
from ._run import make_run
from ._unary import unary_collect

@kernel
def adv2(g, save, gr, level, nctx):
    """Nested rules of levels 1 and 2: the basic four, then forcing chains and cycles."""
    if adv_basic(g, save, gr, level, nctx):
        return True
    if level >= 2:
        recs, hlu, hlm, usc, mark, pool, seen = nctx
        return unary_collect(g, save, gr, recs, hlu, usc, mark) > 0
    return False


run2 = make_run(adv2, "run2")
mcollect0 = make_multi_collect(run1, "mcollect0", False)  # runs of level 0: no nested rules
mcollect2 = make_multi_collect(run2, "mcollect2")


@kernel
def adv5(g, save, gr, level, nctx):
    """Nested rules of levels 1 to 5 (see the module), stopping at the first that yields."""
    if adv_basic(g, save, gr, level, nctx):
        return True
    recs, hlu, hlm, usc, mark, pool, seen = nctx
    if level < 4:
        if level >= 2 and unary_collect(g, save, gr, recs, hlu, usc, mark) > 0:
            return True
        if level >= 3:
            return mcollect0(g, save, gr, 0, False, False, True, nctx) > 0
        return False
    if mcollect0(g, save, gr, 0, False, True, True, nctx) > 0:
        return True
    if level >= 5:
        return mcollect2(g, save, gr, 2, False, True, True, nctx) > 0
    return False


run5 = make_run(adv5, "run5")
multi5 = make_multi(run5, "multi5", True)


@kernel
def find_nested(g, hi, hd, hrem, max_level, nctx):
    """The first hint of the nested levels 2 to ``max_level``, in SE's order: 1 found, 0 none,
    -1 the next level is past ``max_level``. ``nctx``: ``new_nctx(True)``, new or as an earlier
    call left it (its records are dropped here; its other parts are left as they were found)."""
    nctx[0][2][0] = 0  # no record of an earlier call's chains
    ws = new_workspace(True)
    for level in range(2, 6):
        if level > max_level:
            return -1
        if multi5(g, hi, hd, hrem, level, False, True, True, nctx, ws):
            return 1
    return 0
