"""Writes about clubs (亲友圈): create, join, approve, remove, change roles, new invite code.

Every service is keyword-only, checks the acting player's role itself and raises an
``accounts.errors`` error with a message fit for the player. Role rules, which the spec leaves to
us (it covers the game, not clubs), follow what players of club apps such as 微信亲友圈 expect:

* the owner (圈主) can do everything and cannot be removed or demoted (ownership is not
  transferable);
* admins (管理员) approve or reject requests, remove ordinary members, and manage rooms;
* only the owner appoints or demotes admins, and only the owner removes an admin;
* any member may leave a club they do not own;
* a site superuser may do what the owner may (support and moderation); the rules that protect
  the club itself (the owner stays, roles are admin or member) still hold.

Who is an owner or a manager is the membership policy's (``accounts.membership``): an active
membership *and* an active account, so a deactivated owner or admin manages nothing.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from accounts.codes import normalize_code
from accounts.display_names import name_taken_in_club
from accounts.errors import (
    AlreadyMember,
    ClubPermissionDenied,
    InviteCodeNotFound,
    MembershipStateError,
    NameTakenInClub,
)
from accounts.membership import may_manage_club, may_own_club
from accounts.models import Club, Membership, User, new_club_code
from accounts.selectors import membership_of


def _require_manager(*, actor: User, club: Club) -> None:
    if not may_manage_club(actor, club.pk):
        raise ClubPermissionDenied(_("只有圈主或管理员可以这样做。"))


def _require_owner(*, actor: User, club: Club) -> None:
    if not may_own_club(actor, club.pk):
        raise ClubPermissionDenied(_("只有圈主可以这样做。"))


@transaction.atomic
def club_create(
    *,
    owner: User,
    name: str,
    description: str = "",
    join_policy: str = Club.JoinPolicy.OPEN,
) -> Club:
    """Open a new club; its creator becomes its owner (圈主) and first member."""
    club = Club.objects.create(
        owner=owner, name=name.strip(), description=description.strip(), join_policy=join_policy
    )
    Membership.objects.create(
        club=club, user=owner, role=Membership.Role.OWNER, status=Membership.Status.ACTIVE
    )
    return club


def club_join_by_code(*, user: User, code: str) -> Membership:
    """Join the club with this invite code: at once if it is open, else as a pending request.

    Raises ``InviteCodeNotFound`` for an unknown code, ``AlreadyMember`` when the player already
    belongs to the club or already asked to join it, and ``NameTakenInClub`` when another player
    of the club already goes by the player's name (``accounts.display_names``).
    """
    club = Club.objects.filter(invite_code=normalize_code(code)).first()
    if club is None:
        raise InviteCodeNotFound(_("没有这个邀请码对应的亲友圈。"))
    existing = membership_of(user=user, club=club)
    if existing is not None:
        raise AlreadyMember(_already_member_message(existing))
    if name_taken_in_club(user=user, club_id=club.pk):  # two players of one name at its tables
        raise NameTakenInClub(
            _("这个亲友圈里已经有人叫“%(name)s”了：请先在个人资料里改个昵称再加入。")
            % {"name": user.public_name}
        )
    status = (
        Membership.Status.PENDING
        if club.join_policy == Club.JoinPolicy.APPROVAL
        else Membership.Status.ACTIVE
    )
    try:
        with transaction.atomic():
            return Membership.objects.create(
                club=club, user=user, role=Membership.Role.MEMBER, status=status
            )
    except IntegrityError:  # a double click raced us: the unique (club, user) constraint held
        raise AlreadyMember(_("你已经申请过加入这个亲友圈。")) from None


def _already_member_message(membership: Membership) -> str:
    if membership.is_active:
        return _("你已经是这个亲友圈的成员了。")
    return _("你已经申请过加入这个亲友圈，请等待审核。")


def membership_approve(*, actor: User, membership: Membership) -> Membership:
    """Admit a pending request (owner or admin of the club)."""
    _require_manager(actor=actor, club=membership.club)
    if membership.status != Membership.Status.PENDING:
        raise MembershipStateError(_("这个申请已经处理过了。"))
    membership.status = Membership.Status.ACTIVE
    membership.save(update_fields=["status"])
    return membership


def membership_reject(*, actor: User, membership: Membership) -> None:
    """Turn down a pending request (owner or admin); the player may ask again later."""
    _require_manager(actor=actor, club=membership.club)
    if membership.status != Membership.Status.PENDING:
        raise MembershipStateError(_("这个申请已经处理过了。"))
    membership.delete()


def membership_remove(*, actor: User, membership: Membership) -> None:
    """Remove a member from a club, or let a player leave.

    The owner cannot be removed (nor leave: the club would have no owner). An admin removes
    ordinary members only; removing an admin takes the owner.
    """
    if membership.role == Membership.Role.OWNER:
        raise MembershipStateError(_("不能移除圈主。"))
    if actor.pk != membership.user_id:
        if membership.role == Membership.Role.ADMIN:
            _require_owner(actor=actor, club=membership.club)
        else:
            _require_manager(actor=actor, club=membership.club)
    membership.delete()


def membership_set_role(*, actor: User, membership: Membership, role: str) -> Membership:
    """Appoint an admin or make an admin a plain member again (owner only).

    Ownership is not changed here: ``role`` must be admin or member, and the owner's own
    membership cannot be changed.
    """
    _require_owner(actor=actor, club=membership.club)
    if role not in {Membership.Role.ADMIN, Membership.Role.MEMBER}:
        raise MembershipStateError(_("只能设为管理员或普通成员。"))
    if membership.role == Membership.Role.OWNER:
        raise MembershipStateError(_("不能更改圈主的角色。"))
    if not membership.is_active:
        raise MembershipStateError(_("请先通过这个申请。"))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


def club_regenerate_code(*, actor: User, club: Club) -> str:
    """Give the club a new invite code (owner or admin), e.g. after the old one leaked.

    Memberships already granted stay; only the old code stops working.
    """
    _require_manager(actor=actor, club=club)
    club.invite_code = new_club_code()
    club.save(update_fields=["invite_code"])
    return club.invite_code


def club_update(*, actor: User, club: Club, name: str, description: str, join_policy: str) -> Club:
    """Change a club's name, description or join policy (owner or admin)."""
    _require_manager(actor=actor, club=club)
    club.name = name.strip()
    club.description = description.strip()
    club.join_policy = join_policy
    club.save(update_fields=["name", "description", "join_policy"])
    return club
