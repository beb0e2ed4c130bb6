import re


def slugify(title):
    """`title` in lower case, each run of other characters than letters and digits one dash."""
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
