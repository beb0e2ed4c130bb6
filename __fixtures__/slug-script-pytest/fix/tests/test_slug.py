from slugkit.slug import slugify


def test_joins_words_with_a_dash():
    assert slugify("Hello World") == "hello-world"


def test_drops_a_leading_dash():
    assert slugify("  Hello") == "hello"


def test_drops_a_trailing_dash():
    assert slugify("Hello, World!") == "hello-world"
