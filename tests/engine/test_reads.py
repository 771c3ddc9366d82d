"""What a rule reads of a command is recorded, also when the rule hands the command on with a word
changed (Reading.but) and when the answer of what is legal asks a word's candidates (Watched): the
answer's shortcuts (a refusal that holds for every command alike, candidates found once) rest on it."""

from ledger.core.command import Reading, changed
from ledger.core.legal import Watched


def test_a_command_handed_on_records_the_reads_of_the_rule_it_is_handed_to():
    into: set = set()
    words = Reading({"corp": "OU", "using": "WCF", "slot": "2"}, into=into)
    handed = changed(words, using=None)
    assert handed.get("using") is None and handed.get("slot") == "2"
    assert into == {"using", "slot"}
    assert words.unread() == ["corp"]   # the first rule sees what the second one read


def test_a_plain_dict_is_copied_with_the_change():
    assert changed({"corp": "OU", "revenue": 10}, revenue=40) == {"corp": "OU", "revenue": 40}


def test_walking_the_words_given_depends_on_all_of_them():
    read: set = set()
    words = Watched({"hex": "E5"}, into=read)
    assert words.get("modifiers") is None and read == {"modifiers"} and not words.whole
    {**words}
    assert words.whole   # which words are absent mattered too
