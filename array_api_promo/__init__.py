"""array_api_promo"""
