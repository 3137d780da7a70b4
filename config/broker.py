"""The Celery broker transport: kombu's Redis transport, with a QoS that survives a lost Redis.

Why: the worker died with "Unrecoverable error: AttributeError('NoneType'
object has no attribute 'hostname')" on most Redis restarts, always with messages delivered but
not acknowledged (``acks_late`` tasks running, or ``countdown`` tasks — bots' moves, the next
round — held until their time). On the connection error, Celery's consumer calls
``Connection.collect()`` and then ``Connection.close()``. In ``collect()``, kombu's Redis channel
starts closing, and a connection error from the dead socket (the pending BRPOP reply) aborts
the close before the channel is marked closed; ``collect()`` then detaches the transport
from its connection (``transport.client = None``). ``close()`` closes the channel again, and
its QoS restores the unacknowledged messages (``restore_unacked``), which builds a Redis client
from ``transport.client``: an AttributeError, which is no connection error, so it escaped
Celery's ``ignore_errors`` and stopped the worker.

Here the restore gives up, in one log line, when it cannot be done: the transport has no
connection any more, or Redis does not answer. Nothing is lost by that: each delivered message
is also kept in Redis's ``unacked`` hash, from which kombu restores it after the visibility
timeout if Redis kept its memory; a Redis that lost its memory lost them anyway (there was
nothing to restore), and the clock's sweeps redo what such tasks did (deadlines, next rounds,
settlements: config/clock.py).
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)


class QoS(kombu_redis.QoS):
    def restore_unacked(self, client: Any = None) -> None:
        transport = self.channel.connection
        if transport.client is None:
            self._give_up_restore("the broker connection is already closed")
            return
        try:
            super().restore_unacked(client)
        except transport.connection_errors as exc:
            self._give_up_restore(f"the broker is unreachable ({type(exc).__name__}: {exc})")

    def _give_up_restore(self, why: str) -> None:
        delivered = self._delivered
        assert delivered is not None  # set in __init__
        log.warning(
            "%d unacknowledged message(s) not restored now: %s; Redis restores them after the "
            "visibility timeout if it kept them",
            len(delivered),
            why,
        )
        delivered.clear()


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    """``CELERY_BROKER_TRANSPORT`` (config/settings.py); the URL stays ``REDIS_URL``."""

    Channel = Channel
