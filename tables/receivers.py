"""Signals from other apps that change who may be at a table.

A membership deleted (a player left or was removed, or the club was deleted), made inactive, or
a user account deactivated: after the commit, :func:`tables.rooms.member_lost` stands the
player up and closes their sockets at the club's tables (a member who left
kept playing and was paid; a removed spectator kept receiving the game).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from accounts.models import Membership, User
from tables.rooms import member_lost

log = logging.getLogger(__name__)


def _after_commit(club_id: int, user_id: int) -> None:
    def run() -> None:
        try:
            member_lost(club_id=club_id, user_id=user_id)
        except Exception:  # the socket's next resync re-checks membership anyway
            log.exception("could not take user %s away from club %s's tables", user_id, club_id)

    transaction.on_commit(run)


@receiver(post_delete, sender=Membership, dispatch_uid="tables.membership_deleted")
def membership_deleted(sender: Any, instance: Membership, **kwargs: Any) -> None:
    _after_commit(instance.club_id, instance.user_id)


@receiver(post_save, sender=Membership, dispatch_uid="tables.membership_saved")
def membership_saved(sender: Any, instance: Membership, **kwargs: Any) -> None:
    if instance.status != Membership.Status.ACTIVE:
        _after_commit(instance.club_id, instance.user_id)


@receiver(post_save, sender=User, dispatch_uid="tables.user_saved")
def user_saved(sender: Any, instance: User, **kwargs: Any) -> None:
    if not instance.is_active:
        for club_id in Membership.objects.filter(user=instance).values_list("club_id", flat=True):
            _after_commit(club_id, instance.pk)
