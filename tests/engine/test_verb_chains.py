"""A verb's chain (ledger.core.plays.Extension, Registry.extend): what features add before, around
and after a verb's rule runs in a fixed order, whatever order the features registered in, and a
feature that replaces the rule keeps what the others added."""

import pytest

from ledger import catalog
from ledger.core.plays import Play
from ledger.core.registry import Registry
from ledger.core.titles import for_ruleset


def registry_with(calls: list) -> Registry:
    reg = Registry()
    reg.verb("done", lambda ctx, cmd: calls.append("rule"), "operating")
    return reg


def around(calls, name):
    def wrap(ctx, cmd, inner):
        calls.append(f"{name} in")
        inner(ctx, cmd)
        calls.append(f"{name} out")
    wrap.__name__ = name
    return wrap


def test_before_around_and_after_run_in_their_stages_whatever_order_they_were_added_in():
    calls: list = []
    reg = registry_with(calls)
    reg.extend("operating", "done", after=lambda ctx, cmd: calls.append("after"))
    reg.extend("operating", "done", around=around(calls, "outer"))
    reg.extend("operating", "done", before=lambda ctx, cmd: calls.append("before"))
    reg.extend("operating", "done", around=around(calls, "inner"))
    reg.handler("operating", "done")(None, None)
    assert calls == ["before", "outer in", "inner in", "rule", "inner out", "outer out", "after"]


def test_a_feature_replacing_the_rule_keeps_the_extensions_added_before_it():
    calls: list = []
    reg = registry_with(calls)
    reg.extend("operating", "done", before=lambda ctx, cmd: calls.append("check"), name="a check")
    reg.rework("operating", "done", handler=lambda ctx, cmd: calls.append("the title's rule"))
    reg.handler("operating", "done")(None, None)
    assert calls == ["check", "the title's rule"]


def test_an_around_that_refuses_never_plays_the_rule():
    calls: list = []
    reg = registry_with(calls)

    def refusing(ctx, cmd, inner):
        raise ValueError("refused")
    reg.extend("operating", "done", around=refusing)
    with pytest.raises(ValueError):
        reg.handler("operating", "done")(None, None)
    assert calls == []


def test_an_extension_is_one_stage_of_a_play_that_exists():
    reg = registry_with([])
    with pytest.raises(KeyError, match="no Play of 'pass' in 'operating'"):
        reg.extend("operating", "pass", before=print)
    with pytest.raises(ValueError, match="one of before, around or after"):
        reg.extend("operating", "done", before=print, after=print)


def test_a_chain_reads_in_the_order_it_runs():
    def base(ctx, cmd):
        pass
    play = Play("done", base)
    reg = Registry()
    reg.play(play.with_(rounds=("operating",)))
    reg.extend("operating", "done", after=base, name="the last word")
    reg.extend("operating", "done", before=base)
    assert reg.chains()[("operating", "done")] == [
        f"before: base ({__name__})", f"rule: base ({__name__})", f"after: the last word: base ({__name__})"]


def test_1839s_director_draw_is_spent_around_each_cost_and_checked_before_done():
    chains = for_ruleset(catalog.title_ruleset("1839")).chains()
    for verb in ("lay", "token", "tile", "train"):
        assert chains[("operating", verb)][0].startswith("around: a Rotterdamsche Bank draw spent first (§12.5): spends")
    assert chains[("operating", "done")][0].startswith("before: a draw must be spent (§12.5): charge_unspent")
    assert chains[("operating", "sell")][0].startswith("around: a sale to fund a draw (§12.5): sale_for_charge")
    # the rule inside is the shared one where 1839 does not replace it
    assert chains[("operating", "train")][-1].startswith("rule: cmd_train (ledger.core.rules.")
