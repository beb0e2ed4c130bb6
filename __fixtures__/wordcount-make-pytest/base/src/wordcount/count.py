def count_words(text):
    """The number of words in `text`, separated by whitespace."""
    if not text.strip():
        return 0
    return len(text.strip().split(" "))
