"""rouge_lcs.base.records: a record behaves as the frozen dataclass it replaces."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from rouge_lcs.base.records import FrozenInstanceError, record, replace
from rouge_lcs.config.settings import Settings, make_settings


@record
class Point:
    """A record at module level, so that it pickles."""

    x: int
    y: object = 0


@dataclasses.dataclass(frozen=True)
class DataPoint:
    x: int
    y: object = 0


def test_a_record_is_what_a_frozen_dataclass_was():
    point, data = Point(1, "a"), DataPoint(1, "a")
    assert repr(point) == repr(data).replace("DataPoint", "Point") == "Point(x=1, y='a')"
    assert hash(point) == hash(data) == hash((1, "a"))
    assert point == Point(x=1, y="a") and Point(1) == Point(1, 0)
    assert point != Point(1, "b") and point != (1, "a") and point != data
    assert Point.__match_args__ == ("x", "y") and Point.y == 0
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):  # FrozenInstanceError is one, as dataclasses' is
        point.z = 2  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        del point.y  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    assert pickle.loads(pickle.dumps(point)) == point
    assert copy.copy(point) == point and copy.deepcopy(point) == point
    assert replace(point, y=2) == Point(1, 2) and point.y == "a"
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(point, z=2)


def test_a_record_keeps_its_own_methods_and_runs_post_init():
    checked = []

    @record
    class Checked:
        value: int

        def __post_init__(self) -> None:
            checked.append(self.value)

        def __repr__(self) -> str:
            return "mine"

    assert repr(Checked(3)) == "mine" and checked == [3]
    with pytest.raises(TypeError, match="non-default argument 'b'"):

        @record
        class Wrong:
            a: int = 0
            b: int  # type: ignore[misc]


def test_settings_stay_a_cache_key_and_pickle():
    settings = make_settings(["rouge1", "rougeLsum"], use_stemmer=True, tokenizer="rouge_score")
    again = make_settings(["rouge1", "rougeLsum"], use_stemmer=True, tokenizer="rouge_score")
    assert settings == again and hash(settings) == hash(again) and {settings: 1}[again] == 1
    assert settings != make_settings(["rouge1", "rougeLsum"], tokenizer="rouge_score")
    clone = pickle.loads(pickle.dumps(settings))
    assert isinstance(clone, Settings) and clone == settings and hash(clone) == hash(settings)
    assert repr(settings).startswith("Settings(rouge_types=(RougeType(name='rouge1', kind='n'")


def test_named_tuples_are_what_typing_makes():
    # base.records.NamedTuple: typing.NamedTuple's class syntax without importing typing; the
    # class is a collections.namedtuple with the docstring, defaults and methods written.
    import pickle
    import typing

    from rouge_lcs.base.records import NamedTuple

    class Ours(NamedTuple):
        """Doc."""

        a: float
        b: int = 2

        def total(self) -> float:
            return self.a + self.b

    class Theirs(typing.NamedTuple):
        a: float
        b: int = 2

    ours, theirs = Ours(1.5), Theirs(1.5)
    assert repr(ours) == repr(theirs).replace("Theirs", "Ours") == "Ours(a=1.5, b=2)"
    assert ours == theirs == (1.5, 2) and hash(ours) == hash(theirs)
    assert Ours._fields == Theirs._fields and Ours._field_defaults == {"b": 2}
    assert ours.total() == 3.5 and Ours.__doc__ == "Doc." and isinstance(ours, tuple)
    assert ours._replace(b=3) == (1.5, 3) and ours._asdict() == {"a": 1.5, "b": 2}
    with pytest.raises(AttributeError):
        ours.a = 2.0  # type: ignore[misc]
    from rouge_lcs.scores.results import Score

    assert pickle.loads(pickle.dumps(Score(0.5, 0.25, 1 / 3))) == (0.5, 0.25, 1 / 3)
