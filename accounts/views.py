"""Account pages (sign up, profile, language) and club pages (亲友圈).

Log in/out and the password pages are Django's auth views with our templates (see ``urls.py``).
Club pages are thin: they read through ``selectors`` and write through ``services``, turning a
``ClubError`` into a message for the player.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axes.utils import reset as axes_reset
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts import membership as membership_policy
from accounts import selectors, services
from accounts.errors import ClubError
from accounts.forms import ClubForm, JoinClubForm, ProfileForm, SignUpForm
from accounts.models import Club, Membership, User

# Sign-up logs the new player in without a password check, so name the backend explicitly
# (there are two: axes first, then the model backend).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def _player(request: HttpRequest) -> User:
    """The signed-in player (the views using this are all behind ``login_required``)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _next_url(request: HttpRequest) -> str:
    """The safe ``next`` of the request (e.g. a club invite link followed before signing up)."""
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    allowed = url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return candidate if allowed else ""


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and sign in straight away, then go where the visitor was heading."""
    next_url = _next_url(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.language = getattr(request, "LANGUAGE_CODE", User.Language.ZH_HANS)
        if user.language not in User.Language.values:
            user.language = User.Language.ZH_HANS
        user.save()
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, _("欢迎来到雀友！"))
        return redirect(next_url or "home")
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's reset confirmation, which also lifts a log-in lock-out on the account.

    A lock-out (django-axes) guards against password guessing; following a link sent to the
    account's mailbox is a stronger proof than the lock, and players who were locked out are
    exactly the ones who reset their password — they expect to get in with the new one at once.
    """

    def form_valid(self, form: SetPasswordForm[Any]) -> HttpResponse:
        response = super().form_valid(form)
        axes_reset(username=form.user.get_username())
        return response


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Nickname, avatar colour and interface language."""
    player = _player(request)
    form = ProfileForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("资料已保存。"))
        return redirect("accounts:profile")
    return render(request, "accounts/profile.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language``, which also stores the choice on a signed-in player's profile.

    The profile language wins over the cookie (``UserLanguageMiddleware``), so without this the
    switcher would seem to do nothing for a signed-in player.
    """
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in User.Language.values:
        player = _player(request)
        player.language = language
        player.save(update_fields=["language"])
    return django_set_language(request)


# --- clubs ---------------------------------------------------------------------------------------


@login_required
def club_list(request: HttpRequest) -> HttpResponse:
    memberships = selectors.memberships_of_user(user=_player(request))
    return render(request, "clubs/list.html", {"memberships": memberships})


@login_required
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        club = services.club_create(owner=_player(request), **form.cleaned_data)
        messages.success(request, _("亲友圈已创建，把邀请码发给朋友吧。"))
        return redirect("accounts:club_detail", pk=club.pk)
    return render(request, "clubs/create.html", {"form": form})


@login_required
def club_join(request: HttpRequest) -> HttpResponse:
    """Join by invite code; ``?code=`` pre-fills the form so a shared link needs one tap."""
    form = JoinClubForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        try:
            membership = services.club_join_by_code(
                user=_player(request), code=form.cleaned_data["code"]
            )
        except ClubError as error:
            form.add_error("code", str(error))
        else:
            if membership.is_active:
                messages.success(request, _("已加入亲友圈。"))
                return redirect("accounts:club_detail", pk=membership.club_id)
            messages.info(request, _("申请已发送，请等待圈主或管理员审核。"))
            return redirect("home")
    return render(request, "clubs/join.html", {"form": form})


def _club_for_member(request: HttpRequest, pk: int) -> tuple[Club, Membership]:
    """The club and the player's active membership (``accounts.membership``); 404 for
    outsiders, so clubs stay private."""
    club = get_object_or_404(Club, pk=pk)
    membership = selectors.membership_of(user=_player(request), club=club)
    if membership is None or not membership_policy.is_active_member(_player(request), club.pk):
        raise Http404
    return club, membership


@login_required
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    club, membership = _club_for_member(request, pk)
    manages = membership_policy.membership_manages(membership)
    context = {
        "club": club,
        "membership": membership,
        "manages": manages,
        "members": selectors.club_members(club=club),
        "pending": selectors.club_pending_requests(club=club) if manages else (),
        "rooms": club.rooms.all(),
        "join_url": request.build_absolute_uri(
            f"{reverse('accounts:club_join')}?code={club.invite_code}"
        ),
    }
    return render(request, "clubs/detail.html", context)


@login_required
def club_edit(request: HttpRequest, pk: int) -> HttpResponse:
    club, membership = _club_for_member(request, pk)
    if not membership_policy.membership_manages(membership):
        raise Http404
    form = ClubForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        services.club_update(actor=_player(request), club=club, **form.cleaned_data)
        messages.success(request, _("亲友圈信息已保存。"))
        return redirect("accounts:club_detail", pk=club.pk)
    return render(request, "clubs/edit.html", {"form": form, "club": club})


@login_required
@require_POST
def club_regenerate_code(request: HttpRequest, pk: int) -> HttpResponse:
    club, _membership = _club_for_member(request, pk)
    try:
        services.club_regenerate_code(actor=_player(request), club=club)
    except ClubError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("已生成新的邀请码，旧邀请码作废。"))
    return redirect("accounts:club_detail", pk=club.pk)


@login_required
@require_POST
def club_leave(request: HttpRequest, pk: int) -> HttpResponse:
    club, membership = _club_for_member(request, pk)
    try:
        services.membership_remove(actor=_player(request), membership=membership)
    except ClubError as error:
        messages.error(request, str(error))
        return redirect("accounts:club_detail", pk=club.pk)
    messages.success(request, _("你已退出亲友圈。"))
    return redirect("home")


MEMBER_ACTIONS: dict[str, tuple[Callable[..., object], dict[str, str]]] = {
    "approve": (services.membership_approve, {}),
    "reject": (services.membership_reject, {}),
    "remove": (services.membership_remove, {}),
    "make_admin": (services.membership_set_role, {"role": Membership.Role.ADMIN}),
    "make_member": (services.membership_set_role, {"role": Membership.Role.MEMBER}),
}


@login_required
@require_POST
def membership_action(
    request: HttpRequest, pk: int, membership_pk: int, action: str
) -> HttpResponse:
    """Approve / reject / remove / appoint a member; the service decides whether the actor may."""
    club, _membership = _club_for_member(request, pk)
    target = get_object_or_404(Membership, pk=membership_pk, club=club)
    if action not in MEMBER_ACTIONS:
        raise Http404
    service, extra = MEMBER_ACTIONS[action]
    try:
        service(actor=_player(request), membership=target, **extra)
    except ClubError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("已完成。"))
    return redirect("accounts:club_detail", pk=club.pk)
