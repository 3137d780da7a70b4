"""``python manage.py demo``: seed a demo club to try Queyou with four browsers.

Idempotent: running it again finds what it made before, resets the demo passwords and adds only
what is missing, so it is safe on a database that is already in use.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand
from django.db import transaction

from accounts import services
from accounts.display_names import display_name_validate
from accounts.models import Club, Membership, User
from rules.registry import VARIANTS
from tables.models import Room
from tables.room_options import room_options_validate

DEMO_PASSWORD = "mahjong-demo"
DEMO_CLUB_NAME = "雀友演示圈"
DEMO_PLAYERS = (
    ("demo1", "小林", "#c0392b"),
    ("demo2", "阿梅", "#27ae60"),
    ("demo3", "老赵", "#2980b9"),
    ("demo4", "大刘", "#8e44ad"),
)
"""Names that are not seat winds: "西 东风" at a table read as a riddle."""
ROOM_NAMES = {key: f"{variant.name} · 演示桌" for key, variant in VARIANTS.items()}
"""One demo room per variant of the registry (its Chinese name)."""


class Command(BaseCommand):
    help = "Create demo players demo1..demo4, a club owned by demo1 and one room per variant."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        players = [self._player(username, name, colour) for username, name, colour in DEMO_PLAYERS]
        club = self._club(owner=players[0], members=players[1:])
        rooms = [
            self._room(club, variant, name, players[0]) for variant, name in ROOM_NAMES.items()
        ]
        self._report(players, club, rooms)

    def _player(self, username: str, display_name: str, colour: str) -> User:
        user, created = User.objects.get_or_create(
            username=username,
            defaults={"display_name": display_name, "avatar_color": colour, "email": ""},
        )
        try:  # an older demo named them after the winds; the name check is the site's own
            user.display_name = display_name_validate(user=user, name=display_name)
        except ValidationError as refused:
            self.stdout.write(self.style.WARNING(f"{username} keeps its name: {refused.messages}"))
        user.set_password(DEMO_PASSWORD)  # reset each run, so the printed password always works
        user.save()
        self._say(created, f"player {username}")
        return user

    def _club(self, *, owner: User, members: list[User]) -> Club:
        club = Club.objects.filter(owner=owner, name=DEMO_CLUB_NAME).first()
        self._say(club is None, f"club {DEMO_CLUB_NAME}")
        if club is None:
            club = services.club_create(
                owner=owner,
                name=DEMO_CLUB_NAME,
                description="演示用亲友圈：四位演示玩家，每种玩法一张桌。",
            )
        for member in members:
            Membership.objects.get_or_create(
                club=club, user=member, defaults={"status": Membership.Status.ACTIVE}
            )
        return club

    def _room(self, club: Club, variant: str, name: str, creator: User) -> Room:
        room, created = Room.objects.get_or_create(
            club=club,
            variant=variant,
            name=name,
            defaults={
                "options": room_options_validate(variant=variant, options={}, base_stake=1),
                "created_by": creator,
            },
        )
        self._say(created, f"room {name}")
        return room

    def _say(self, created: bool, what: str) -> None:
        verb = "created" if created else "exists "
        self.stdout.write(f"  {verb} {what}")

    def _report(self, players: list[User], club: Club, rooms: list[Room]) -> None:
        names = ", ".join(p.username for p in players)
        self.stdout.write(self.style.SUCCESS("Demo ready."))
        self.stdout.write(f"  players:  {names}  (password: {DEMO_PASSWORD})")
        self.stdout.write(f"  club:     {club.name}  (invite code {club.invite_code}, owner demo1)")
        for room in rooms:
            self.stdout.write(f"  room:     {room.name}  [{room.variant}]  code {room.invite_code}")
        self.stdout.write(
            "Log in at /accounts/login/ as demo1 (club owner: may also open /admin/) and as "
            "demo2..demo4 in other browsers or private windows."
        )
