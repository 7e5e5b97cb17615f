"""brandubh.rl's standard interfaces pass their own checkers: PettingZoo's
api_test and seed test, Gymnasium's check_env, and Gymnasium's vector
interface; and they play the game as brandubh.Rules does."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

with warnings.catch_warnings():
    # pettingzoo.test loads PettingZoo's own environments through an API
    # that PettingZoo itself calls deprecated.
    warnings.simplefilter("ignore", DeprecationWarning)
    from pettingzoo.test import api_test, seed_test  # noqa: E402

from brandubh import Bot, MoveError, Rules  # noqa: E402
from brandubh.errors import ArgumentError  # noqa: E402
from brandubh.rl import action_move, move_action, observe  # noqa: E402
from brandubh.rl import gymnasium as rl_gym  # noqa: E402
from brandubh.rl import pettingzoo as rl_pz  # noqa: E402
from conftest import scale  # noqa: E402


# -- PettingZoo -----------------------------------------------------------------


def test_the_module_is_the_real_pettingzoo_s_environment():
    assert isinstance(rl_pz.BrandubhAEC(), pettingzoo.AECEnv)
    assert rl_pz.AECEnv is pettingzoo.AECEnv


@pytest.mark.parametrize("variant", ["brandubh", "codingame"])
def test_pettingzoo_api_test(variant):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the checker's notes on Box bounds and the like
        api_test(rl_pz.env(variant=variant), num_cycles=scale(200, 2000))


def test_pettingzoo_seed_test():
    seed_test(lambda: rl_pz.env(variant="modern"), num_cycles=scale(100, 1000))


def test_pettingzoo_plays_the_game_as_rules_does():
    """A whole game of random legal actions: every observation, mask and
    reward as Rules and observe() say."""
    env = rl_pz.env(variant="codingame", render_mode="ansi")
    env.reset(seed=3)
    game = Rules(variant="codingame")
    rng = np.random.default_rng(3)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        planes, mask = observe(game, agent)
        assert (obs["observation"] == planes).all()
        if terminated or truncated:
            assert game.is_over()
            assert reward == (0 if game.winner is None else 1 if game.winner == agent else -1)
            env.step(None)
            continue
        assert agent == game.side and (obs["action_mask"] == mask).all()
        waiting = "defenders" if agent == "attackers" else "attackers"
        assert (env.observe(waiting)["action_mask"] == 0).all()
        assert (env.observe(waiting)["observation"] == observe(game, waiting)[0]).all()
        action = int(rng.choice(np.flatnonzero(mask)))
        env.step(action)
        game.play(action_move(action))
        assert env.render() == str(game)
    assert env.agents == []


def test_pettingzoo_illegal_action_loses():
    env = rl_pz.env()
    env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(0)   # a1 east 1: nothing stands on a1
    assert env.terminations == {"attackers": True, "defenders": True}
    assert env.rewards["attackers"] == -1


def test_pettingzoo_refuses_bad_settings():
    with pytest.raises(ArgumentError, match="render_mode"):
        rl_pz.BrandubhAEC(render_mode="rgb_array")
    with pytest.raises(ArgumentError, match="view"):
        rl_pz.BrandubhAEC(view="diagonal")
    with pytest.raises(MoveError):
        raw = rl_pz.BrandubhAEC()
        raw.step(0)


# -- Gymnasium ------------------------------------------------------------------


def test_gymnasium_check_env():
    from gymnasium.utils.env_checker import check_env

    for side in ("attackers", "defenders"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check_env(rl_gym.BrandubhEnv(side=side, level=1), skip_render_check=True)


def test_gymnasium_make_finds_it():
    env = gymnasium.make(rl_gym.ENV_ID, variant="codingame", side="defenders")
    assert isinstance(env.unwrapped, rl_gym.BrandubhEnv) and env.unwrapped.variant.ply_cap == 200


def test_gymnasium_game_against_the_bot_is_the_bot_s_game():
    """The learner's random legal moves, the bot's replies as a Bot with the
    same seed chooses them, the reward at the end."""
    env = rl_gym.BrandubhEnv(variant="codingame", side="defenders", level=1, render_mode="ansi")
    obs, info = env.reset(seed=5)
    bot = Bot(1, seed=env.bot.seed)
    game = Rules(variant="codingame")
    game.play(bot.choose(game))
    rng = np.random.default_rng(5)
    while True:
        planes, mask = observe(game, "defenders")
        assert (obs["observation"] == planes).all() and (obs["action_mask"] == mask).all()
        assert env.render() == str(game)
        action = int(rng.choice(np.flatnonzero(mask)))
        obs, reward, terminated, truncated, info = env.step(action)
        game.play(action_move(action))
        if not game.is_over():
            game.play(bot.choose(game))
        assert terminated == game.is_over() and not truncated
        if terminated:
            assert reward == (0 if game.winner is None else 1 if game.winner == "defenders" else -1)
            assert info["winner"] == game.winner
            break
        assert reward == 0
    with pytest.raises(ArgumentError, match="reset"):
        env.step(action)


def test_gymnasium_illegal_action_loses_or_raises():
    env = rl_gym.BrandubhEnv()
    env.reset(seed=1)
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["illegal"], info["winner"]) == (-1.0, True, True, "defenders")
    strict = rl_gym.BrandubhEnv(illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(MoveError):
        strict.step(0)
    strict.step(move_action("d2c2"))   # nothing was played: the move is still there


def test_gymnasium_truncates_at_max_plies():
    env = rl_gym.BrandubhEnv(max_plies=4)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for k in range(2):
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert truncated and not terminated and reward == 0


@pytest.mark.parametrize("kwargs", [{"side": "kings"}, {"level": 0}, {"illegal": "ignore"},
                                    {"render_mode": "human"}, {"max_plies": 0}])
def test_gymnasium_refuses_bad_settings(kwargs):
    with pytest.raises(ArgumentError):
        rl_gym.BrandubhEnv(**kwargs)


def test_gymnasium_vector_interface():
    envs = gymnasium.make_vec(rl_gym.ENV_ID, num_envs=6, vectorization_mode="vector_entry_point",
                              variant="codingame", seed=4)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    assert envs.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=4)
    assert obs in envs.observation_space
    inner = envs.unwrapped.env
    ended = 0
    for _ in range(120):
        actions = inner.random_actions()
        assert actions in envs.action_space
        obs, rewards, terminations, truncations, infos = envs.step(actions)
        assert obs in envs.observation_space
        assert (obs["action_mask"] == inner.masks).all() and obs["action_mask"] is not inner.masks
        if terminations.any():
            ended += int(terminations.sum())
            for i in np.flatnonzero(terminations):
                assert infos["_final_obs"][i]
                assert (infos["final_obs"][i]["observation"] == inner.final_observations[i]).all()
                assert infos["outcome"][i] > 0
    assert ended > 0
