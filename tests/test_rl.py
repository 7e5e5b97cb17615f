"""brandubh.rl: the action numbers, the observation planes and the batched
environment, each checked against brandubh.Rules with encodings worked out
here, independently of csrc/encode.c.

Every step of many batched random games is replayed on a Rules of its own:
the moves (as masks), what the move did, the endings and who won, the
rewards, the automatic restart, the observations, and the random choices
(replayed with the documented rule and splitmix64). BRANDUBH_SLOW=1 plays
more games, under more house rules."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from brandubh import MoveError, Rules, Variant, move, move_from, move_to  # noqa: E402
from brandubh.errors import ArgumentError, BrandubhError  # noqa: E402
from brandubh.rl import (  # noqa: E402
    ACTIONS, DIRECTIONS, PLANES, VectorEnv, action_move, action_of, action_parts, move_action, observe,
)
from brandubh.variant import PRESETS  # noqa: E402
from conftest import scale  # noqa: E402
from test_playouts import splitmix64  # noqa: E402
from test_reference_vs_engine import random_variant  # noqa: E402

SIDES = ("attackers", "defenders")
STEP = {"east": (1, 0), "west": (-1, 0), "north": (0, 1), "south": (0, -1)}


# -- the encodings, worked out here -------------------------------------------


def expected_action(m: int) -> int:
    """The action of a move: from * 24 + direction * 6 + distance - 1."""
    f, t = move_from(m), move_to(m)
    df, dr = t % 7 - f % 7, t // 7 - f // 7
    assert (df == 0) != (dr == 0)
    direction = ("east" if df > 0 else "west") if dr == 0 else ("north" if dr > 0 else "south")
    return f * 24 + DIRECTIONS.index(direction) * 6 + abs(df + dr) - 1


def expected_mask(game: Rules) -> np.ndarray:
    mask = np.zeros(ACTIONS, dtype=np.int8)
    for m in game.moves():
        mask[expected_action(m)] = 1
    return mask


def board_of(position: str) -> dict[int, str]:
    """The pieces of a position string (rank 7 first, digits for empty
    squares), by square: 'a', 'd' or 'k'."""
    rows = position.split()[0].split("/")
    board = {}
    for r, row in enumerate(rows):
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(6 - r) * 7 + file] = ch
                file += 1
    return board


def expected_planes(game: Rules, seen_by: str) -> np.ndarray:
    """The seven planes from the position as Rules writes it."""
    planes = np.zeros((7, 7, 7), dtype=np.uint8)
    own = "a" if seen_by == "attackers" else "dk"
    for sq, piece in board_of(game.position).items():
        rank, file = divmod(sq, 7)
        planes[0 if piece in own else 1, rank, file] = 1
        if piece == "k":
            planes[2, rank, file] = 1
    planes[3, 3, 3] = 1
    for rank, file in ((0, 0), (0, 6), (6, 0), (6, 6)):
        planes[4, rank, file] = 1
    planes[5] = game.side == "defenders"
    planes[6] = min(game.repeats, 255)
    return planes


def test_board_of_reads_the_setup():
    board = board_of(Rules().position)
    assert board[24] == "k" and board[3] == "a" and board[17] == "d" and len(board) == 13
    assert all(Rules().at(sq)[0] == piece for sq, piece in board.items())


def test_every_action_number():
    on_board = 0
    for action in range(ACTIONS):
        where, direction, distance = action_parts(action)
        f = ["abcdefg".index(where[0]), int(where[1]) - 1]
        df, dr = STEP[direction]
        to = (f[0] + df * distance, f[1] + dr * distance)
        assert action == (f[1] * 7 + f[0]) * 24 + DIRECTIONS.index(direction) * 6 + distance - 1
        if 0 <= to[0] < 7 and 0 <= to[1] < 7:
            on_board += 1
            m = action_move(action)
            assert m == move(f[1] * 7 + f[0], to[1] * 7 + to[0])
            assert move_action(m) == action == expected_action(m)
            assert action_of(where, direction, distance) == action
        else:
            with pytest.raises(MoveError, match="leaves the board"):
                action_move(action)
            with pytest.raises(MoveError):
                action_of(where, direction, distance)
    # Each square reaches the 6 others of its rank and the 6 of its file.
    assert on_board == 49 * 12


def test_every_line_move_has_one_action_and_no_other_move_has_any():
    seen = set()
    for f in range(49):
        for t in range(49):
            m = move(f, t)
            if f != t and (f % 7 == t % 7 or f // 7 == t // 7):
                a = move_action(m)
                assert action_move(a) == m and a not in seen
                seen.add(a)
            else:
                with pytest.raises(MoveError):
                    move_action(m)
    assert len(seen) == 49 * 12


@pytest.mark.parametrize("bad", [-1, ACTIONS, 10**9, 2.0, "0", None, True])
def test_bad_action_numbers_are_refused(bad):
    with pytest.raises(BrandubhError):
        action_move(bad)
    with pytest.raises(BrandubhError):
        action_parts(bad)


def test_numpy_integers_are_action_numbers_and_numpy_bools_are_not():
    assert action_move(np.int64(85)) == action_move(85) == move("d1", "d3")
    assert action_parts(np.uint16(85)) == ("d1", "north", 2)
    with pytest.raises(MoveError):
        action_move(np.True_)
    with pytest.raises(MoveError):
        action_move(np.float32(85))


def test_planes_are_named_in_the_documented_order():
    assert PLANES == ("own", "enemy", "king", "throne", "corners", "to_move", "repeats")


def test_observe_one_game_from_either_side_and_fixed():
    game = Rules(variant="codingame")
    rng = random.Random(5)
    for _ in range(30):
        for side in SIDES:
            planes, mask = observe(game, side)
            assert (planes == expected_planes(game, side)).all()
            assert (mask == expected_mask(game)).all()
        fixed, _ = observe(game, "defenders", view="fixed")
        assert (fixed == expected_planes(game, "attackers")).all()
        if game.is_over():
            break
        game.play(rng.choice(game.moves()))
    with pytest.raises(ArgumentError):
        observe(game, "kings")
    with pytest.raises(ArgumentError):
        observe(game, view="sideways")


# -- the batched environment against Rules ------------------------------------


def random_choice(state: int, game: Rules) -> tuple[int, int]:
    """bd_vec_random's rule: the k-th legal action in increasing order,
    k = (splitmix64 >> 32) * n >> 32."""
    state, r = splitmix64(state)
    actions = sorted(expected_action(m) for m in game.moves())
    return state, actions[((r >> 32) * len(actions)) >> 32]


def game_states(seed: int, n: int) -> list[int]:
    """Each game's generator: the n first draws of splitmix64 seeded with seed."""
    states, mix = [], seed
    for _ in range(n):
        mix, r = splitmix64(mix)
        states.append(r)
    return states


def cross_check(variant, games: int, steps: int, seed: int, view: str = "mover",
                max_plies=None) -> set:
    env = VectorEnv(games, variant, seed, view=view, max_plies=max_plies)
    obs, masks = env.reset()
    rules = [Rules(variant=variant) for _ in range(games)]
    states = game_states(seed, games)
    endings = set()

    def check_now(i: int) -> None:
        seen_by = "attackers" if view == "fixed" else rules[i].side
        assert (obs[i] == expected_planes(rules[i], seen_by)).all(), (i, rules[i].position)
        assert (masks[i] == expected_mask(rules[i])).all(), (i, rules[i].position)
        assert env.position(i) == rules[i].position

    for i in range(games):
        check_now(i)
    for _ in range(steps):
        actions = env.random_actions()
        for i in range(games):
            states[i], want = random_choice(states[i], rules[i])
            assert actions[i] == want
        mover = [r.side for r in rules]
        step = env.step(actions)
        assert step.observations is obs and step.masks is masks
        for i in range(games):
            game = rules[i]
            assert game.play(action_move(int(actions[i]))) == Rules.PLAY_OK
            over = game.is_over()
            cut = not over and max_plies is not None and game.ply >= max_plies
            assert step.terminations[i] == over and step.truncations[i] == cut
            want = 0.0 if not over or game.winner is None else 1.0 if game.winner == mover[i] else -1.0
            assert step.rewards[i] == want
            assert env.outcomes[i] == game.outcome
            assert env.winners[i] == (-1 if game.winner is None else SIDES.index(game.winner))
            if over or cut:
                seen_by = "attackers" if view == "fixed" else game.side
                assert (env.final_observations[i] == expected_planes(game, seen_by)).all()
                endings.add((game.outcome.name.lower(), game.winner, want))
                rules[i] = Rules(variant=variant)
            check_now(i)
    return endings


@pytest.mark.parametrize("preset", list(PRESETS))
def test_batched_random_games_step_by_step_against_rules(preset):
    endings = cross_check(preset, scale(8, 64), scale(120, 1500), seed=len(preset))
    assert endings, "no game ended: the check saw no ending, no reward and no restart"


def test_batched_games_under_house_rules():
    rng = random.Random(11)
    for k in range(scale(3, 20)):
        variant = Variant(**random_variant(rng))
        cross_check(variant, 4, scale(60, 400), seed=k, view=rng.choice(["mover", "fixed"]),
                    max_plies=rng.choice([None, 25]))


def test_a_repetition_that_loses_under_codingame_is_a_loss():
    # The attacker on d7 and the defender on d5 step aside and back: the
    # third time the attackers bring the position about, they lose.
    shuffle = [move_action(m) for m in ("d7e7", "d5e5", "e7d7", "e5d5")]
    env = VectorEnv(1, "codingame")
    env.reset()
    game = Rules(variant="codingame")
    for k in range(40):
        step = env.step([shuffle[k % 4]])
        game.play(action_move(shuffle[k % 4]))
        if game.is_over():
            break
    assert game.outcome.name == "REPETITION" and game.winner == "defenders"
    assert k % 2 == 0, "the attackers made the repeating move"
    assert step.terminations[0] and step.rewards[0] == -1.0
    assert env.outcomes[0] == game.outcome and env.winners[0] == 1
    assert env.position(0) == Rules().position   # started again


def test_truncation_at_max_plies():
    env = VectorEnv(3, max_plies=7, seed=2)
    env.reset()
    for k in range(1, 8):
        step = env.step(env.random_actions())
        assert step.truncations.all() == (k == 7) and not step.terminations.any()
    assert (step.rewards == 0).all() and all(env.log(i) == [] for i in range(3))


def test_same_seed_same_games_other_seed_other_games():
    def logs(seed: int, reset_seed=None) -> list:
        env = VectorEnv(4, "modern", seed)
        env.reset(reset_seed)
        for _ in range(30):
            env.step(env.random_actions())
        return [env.log(i) for i in range(4)]

    assert logs(3) == logs(3) == logs(9, reset_seed=3)
    assert logs(3) != logs(4)
    first = logs(3)
    assert len({tuple(g) for g in first}) == 4, "the games of one environment differ from each other"


def test_search_is_the_engine_s_move_for_every_game():
    env = VectorEnv(5, "codingame", seed=4)
    env.reset()
    for _ in range(6):
        env.step(env.random_actions())
    actions, scores = env.search(300, seed=10, scores=True)
    for i in range(5):
        found = env.rules(i).search(budget=300, seed=10 + i)
        assert actions[i] == move_action(found.move) and scores[i] == found.score
        assert env.masks[i, actions[i]] == 1
    assert (env.search(300, seed=10) == actions).all()


def test_legal_masks_are_the_masks():
    env = VectorEnv(3, seed=8)
    env.reset()
    env.step(env.random_actions())
    before = env.masks.copy()
    assert (env.legal_masks() == before).all()
    for i in range(3):
        assert (before[i] == expected_mask(env.rules(i))).all()


def test_bad_steps_are_refused_and_change_nothing():
    env = VectorEnv(3, "codingame", seed=1)
    env.reset()
    env.step(env.random_actions())
    good = env.random_actions()
    snapshot = (env.observations.copy(), env.masks.copy(), [env.log(i) for i in range(3)])
    illegal = good.copy()
    illegal[1] = move_action("a1a2")      # no piece there
    off_board = good.copy()
    off_board[2] = 6                      # a1 west: leaves the board
    cases = [
        (good[:2], ArgumentError, "shape"),
        (good.astype(float), ArgumentError, "whole numbers"),
        (np.array([0, 1, ACTIONS], dtype=np.int64), MoveError, "game 2 is out of range"),
        (np.array([-1, 0, 0]), MoveError, "game 0 is out of range"),
        (illegal, MoveError, "of game 1 is not a legal move there: no_piece"),
        (off_board, MoveError, "of game 2 leaves the board"),
    ]
    for actions, error, words in cases:
        with pytest.raises(error, match=words):
            env.step(actions)
        assert (env.observations == snapshot[0]).all() and (env.masks == snapshot[1]).all()
        assert [env.log(i) for i in range(3)] == snapshot[2]
    env.step(good)   # and the environment goes on


@pytest.mark.parametrize("kwargs, words", [
    ({"num_envs": 0}, "num_envs"), ({"num_envs": 2.5}, "num_envs"), ({"num_envs": 2, "seed": -1}, "seed"),
    ({"num_envs": 2, "view": "top"}, "view"), ({"num_envs": 2, "max_plies": 0}, "max_plies"),
    ({"num_envs": 2, "start": "7/7/7/7/7/7/7 a"}, "already an ending"),
    ({"num_envs": 2, "variant": "chess"}, "preset"),
])
def test_bad_environments_are_refused(kwargs, words):
    with pytest.raises(BrandubhError, match=words):
        VectorEnv(**kwargs)


def test_the_arrays_are_the_environment_s_own():
    env = VectorEnv(2)
    obs, masks = env.reset()
    assert obs.shape == (2, 7, 7, 7) and obs.dtype == np.uint8
    assert masks.shape == (2, ACTIONS) and masks.dtype == np.int8
    step = env.step(env.random_actions())
    assert step.rewards.dtype == np.float32 and step.terminations.dtype == np.bool_
    assert step.observations is obs and env.reset()[0] is obs
    for array in step:
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
