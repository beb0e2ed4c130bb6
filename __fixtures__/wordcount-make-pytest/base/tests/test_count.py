from wordcount.count import count_words


def test_counts_words_separated_by_one_space():
    assert count_words("one two three") == 3


def test_counts_no_word_in_blank_text():
    assert count_words("   ") == 0
