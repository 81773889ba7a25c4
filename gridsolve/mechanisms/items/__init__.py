"""Items: collectibles a piece takes (``collect:``), score tables counting them and the
``collected`` condition."""
