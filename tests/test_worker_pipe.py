"""The render workers' pipe (bot/core/rendering/worker_pipe.py) and the states sent once per worker
(bot/core/rendering/pipe_memo.py): every job reads back as the arguments sent, across forgetting, and a
failure stays the caller's without upsetting the worker."""

from __future__ import annotations

import asyncio
import pickle
import random
import threading

import pytest

import engine
from bot.core.rendering import pipe_memo
from bot.core.rendering.pipe_memo import KEPT, Encoded, Receiver, Sender
from bot.core.rendering.render import ProcessRenderer
from renders.samples import names_for, play


def test_kept_states_cross_once_and_every_job_reads_back_as_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """States of three kinds of game; a worker that keeps no catalogue between jobs, so the cards
    are forgotten and sent again too."""
    monkeypatch.setattr(pipe_memo, "CATALOGUES", 0)
    states = [state for options in (engine.Options(players=2), engine.Options(players=3, ambassador=True),
                                    engine.Options(players=2, phoenix=True))
              for state in list(play(options, 7, policy="greedy"))[::3]]
    encoded = Encoded()
    senders, receivers = [Sender(encoded) for _ in range(2)], [Receiver(), Receiver()]
    rng = random.Random(1)
    for job in range(400):
        args: tuple[object, ...] = ("render_table", None, *rng.sample(states, rng.randint(0, 3)), ["a", "b"])
        if job % 97 == 0:  # a recap: more states in one job than a worker keeps
            args = ("render_recap", None, tuple(states[:KEPT + 8]))
        side = rng.randrange(2)
        sent = pickle.loads(pickle.dumps(senders[side].encode(args)))  # what crosses the socket
        assert receivers[side].decode(sent) == args
    *_, catalogues, new, _ = senders[0].encode(("render_mat", None, states[3], states[3]))
    assert len(new) <= 1 and len(catalogues) == len(new)  # a state twice in a job crosses once
    assert len(receivers[0]._states) <= KEPT + 8


def test_a_job_that_cannot_be_pickled_changes_nothing() -> None:
    states = list(play(engine.Options(players=2), 7, policy="greedy"))[:3]
    sender, receiver = Sender(Encoded()), Receiver()
    receiver.decode(sender.encode((states[0],)))
    with pytest.raises(TypeError):
        sender.encode((states[1], threading.Lock()))
    assert receiver.decode(sender.encode((states[1], states[0]))) == (states[1], states[0])


async def test_a_drawing_that_fails_fails_for_its_caller_only() -> None:
    states = list(play(engine.Options(players=2), 5))
    renderer = ProcessRenderer(workers=1)
    try:
        await renderer.ready()  # drawn by the worker, not in this process while it warms up
        with pytest.raises(AttributeError):
            await renderer._run("render_nothing", None, states[0])
        with pytest.raises(TypeError):
            await renderer._run("render_table", None, states[0], threading.Lock())  # cannot cross
        worker = renderer._workers[0]
        assert await renderer.table(states[-1], names_for(states[-1]))  # the same worker draws on
        assert renderer._workers[0] is worker
    finally:
        await renderer.close()


async def test_jobs_beyond_what_the_socket_holds_are_written_as_it_drains() -> None:
    """200 jobs at once, each over 10 KB (a long argument), more than the socket buffers: the
    loop writes the rest as the worker reads (``loop.add_writer``); each job gets its own answer
    (here the failure of a drawing that does not exist, naming its argument), and the worker
    draws on."""
    states = list(play(engine.Options(players=2), 5))
    renderer = ProcessRenderer(workers=1)
    try:
        await renderer.ready()
        results = await asyncio.gather(*(renderer._run("render_nothing", None, f"{n:03d}" + "x" * 10_000)
                                         for n in range(200)), return_exceptions=True)
        assert all(isinstance(result, AttributeError) for result in results)
        worker = renderer._workers[0]
        assert worker is not None and not worker.broken and not worker._out  # everything written
        assert await renderer.table(states[-1], names_for(states[-1]))
    finally:
        await renderer.close()
