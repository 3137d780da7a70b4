"""People and clubs (亲友圈): the custom user, club memberships, and the pages to manage them."""
